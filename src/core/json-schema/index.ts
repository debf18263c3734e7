export { schemaErrorsToDiagnostics, type SchemaDiagnosticOptions } from './to-diagnostics.js';
export type { ErrorObject, StandaloneValidator } from './standalone.js';
