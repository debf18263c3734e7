export { checkSchemaDocument, type SchemaDocumentOptions } from './check-schema.js';
export { schemaErrorsToDiagnostics, type SchemaDiagnosticOptions } from './to-diagnostics.js';
export type { ErrorObject, StandaloneValidator } from './standalone.js';
export { compileSchema, valueErrors, type CompiledSchema, type CompileOptions, type Draft, type RegExpEngine } from './runtime.js';
