/**
 * The entrypoint's input, output and error schemas as checkers. The default bundle's schemas
 * were compiled at build time (scripts/skill-schemas.mjs), keyed by the sha256 of their JSON
 * text; any other schema is compiled now with ajv (loaded then, with the rest of full.ts),
 * together with the payload contracts and keywords the caller plugs in.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.js';
import type { CompiledSchema, CompileOptions, StandaloneValidator } from '../json-schema/index.js';
// Not through json-schema/index.js: that holds the ajv compiler, which a run reaches through
// loadFull only for a schema that was not compiled at build time.
import { valueErrors } from '../json-schema/to-diagnostics.js';
import { PRECOMPILED } from '../../generated/skill-schemas.js';
import { loadFull } from './full-load.js';

/** Extra schemas (by `$id`) and ajv keywords a schema may use. */
export type SchemaOptions = Pick<CompileOptions, 'refs' | 'keywords'>;

/** A compiled entrypoint schema. `context.input` lets payload-contract rules relate an output to its input. */
export interface SchemaChecker {
  check(value: unknown, context?: { readonly input?: unknown }): Diagnostic[];
}

/**
 * Compiles one of an entrypoint's schemas; `label` names it (`input_schema`, `output_schema`,
 * `error_schema`). Payload contracts plug in here (src/core/contracts `compilePayloadSchema`).
 */
export type SchemaCompiler = (schema: unknown, label: string) => Promise<SchemaChecker | { error: Diagnostic }>;

const precompiled = PRECOMPILED as Readonly<Record<string, StandaloneValidator>>;

function prebuilt(schema: unknown): CompiledSchema | undefined {
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  const validate = Object.hasOwn(precompiled, key) ? precompiled[key] : undefined;
  if (validate === undefined) return undefined;
  return { check: (value) => (validate(value) ? [] : valueErrors(validate.errors ?? [], { data: value, schema })) };
}

/**
 * A checker for `schema`. The build-time validator is used only when no refs or keywords are
 * plugged in: those could change what the schema means.
 */
export async function compileEntrypointSchema(schema: unknown, opts: SchemaOptions = {}): Promise<CompiledSchema | { error: Diagnostic }> {
  const plain = (opts.refs?.length ?? 0) === 0 && (opts.keywords?.length ?? 0) === 0;
  // The manifest's validation already checked its schemas against their meta-schema.
  return (plain ? prebuilt(schema) : undefined) ?? (await loadFull()).compileSchema(schema, { ...opts, validateSchema: false });
}

/** The default compiler: build-time validators for the default bundle, ajv for the rest. */
export const defaultSchemaCompiler: SchemaCompiler = (schema) => compileEntrypointSchema(schema);
