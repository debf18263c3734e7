export { checkSchemaDocument, patternProblem, type SchemaDocumentOptions } from './check-schema.js';
export { schemaErrorsToDiagnostics, valueErrors, type SchemaDiagnosticOptions } from './to-diagnostics.js';
export type { ErrorObject, StandaloneValidator } from './standalone.js';
export { compileSchema, type CompiledSchema, type CompileOptions, type Draft, type RegExpEngine } from './runtime.js';
