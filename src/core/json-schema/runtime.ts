/**
 * JSON Schemas known only at run time (an entrypoint's input/output/error schema, a user's
 * contract, the json.validate skill's schema) are compiled with ajv here. ajv is imported lazily:
 * it costs tens of milliseconds to load, and most commands never need it.
 */
import { createContext, Script, type Context } from 'node:vm';
import type { ErrorObject } from 'ajv';
import { diag, type Diagnostic } from '../diagnostics.js';
import { compileLinear } from './linear-regexp.js';
import { uniqueItemsKeyword } from './unique-items.js';
import { isUrl } from './url-format.js';
import { valueErrors } from './to-diagnostics.js';

export type Draft = '2020-12' | 'draft-07';

/** A compiled schema: returns the findings for a value (empty when it conforms). */
export interface CompiledSchema {
  check(value: unknown): Diagnostic[];
}

export interface CompileOptions {
  /** Dialect when the schema has no `$schema`; default 2020-12. */
  readonly draft?: Draft;
  /** Other schemas a `$ref` may name, keyed by their `$id` (payload contracts, for example). */
  readonly refs?: readonly Record<string, unknown>[];
  /** Extra ajv keywords (payload contracts add theirs). */
  readonly keywords?: readonly { readonly keyword: string; readonly [k: string]: unknown }[];
  /**
   * Check the schema against its meta-schema first (default true). Costs tens of milliseconds;
   * pass false for schemas already checked, such as a validated manifest's embedded schemas.
   */
  readonly validateSchema?: boolean;
  /** Errors also carry `schema`, `parentSchema` and `data` (ajv's `verbose`), for a `mapErrors` that names the rule. */
  readonly verbose?: boolean;
  /**
   * Turns ajv's findings into diagnostics; default `valueErrors` (SCHEMA_VALUE_INVALID each).
   * `value` is what was checked.
   */
  readonly mapErrors?: (errors: readonly ErrorObject[], value: unknown) => Diagnostic[];
  /**
   * The engine for `pattern` and `patternProperties` (ajv's `code.regExp`). Default: RE2, linear
   * in the input (linear-regexp.ts); every schema compiled here may come from a user, and a
   * backtracking RegExp can hang the process on one pattern and a short string.
   */
  readonly regExp?: RegExpEngine;
  /** How long one check of a value may take, in ms (default CHECK_BUDGET_MS). */
  readonly budgetMs?: number;
}

/**
 * How long one check of a value may take. A schema can multiply the work of its own check: two
 * `anyOf` branches that each recurse into the items try 2^depth paths on an array nested that
 * deep (24 levels ran `run` out of memory, 4 GB in two minutes), and the schema is a skill's
 * (its input and output schemas, a tool's arguments under `mcp`). A schema without such
 * alternatives is checked in time about linear in the value, far inside the bound.
 */
export const CHECK_BUDGET_MS = 5_000;

/** Compiles a pattern (ajv passes the flags "u"); a throw is reported as SCHEMA_UNCOMPILABLE. */
export type RegExpEngine = (pattern: string, flags: string) => { test(s: string): boolean };

type AjvLike = {
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
  addSchema(schema: unknown): unknown;
  addKeyword(def: unknown): unknown;
  addFormat(name: string, format: (s: string) => boolean): unknown;
  removeKeyword(keyword: string): unknown;
};

function draftOf(schema: unknown, fallback: Draft): Draft {
  const s = schema !== null && typeof schema === 'object' ? (schema as { $schema?: unknown }).$schema : undefined;
  return typeof s === 'string' && s.includes('draft-07') ? 'draft-07' : fallback;
}

/**
 * `meta`: whether the instance holds the dialect's meta-schemas. Adding them (eight documents for
 * 2020-12, each walked for its `$id`s and `$ref`s) is most of what a new instance costs, and they
 * serve only to check a schema against its meta-schema or to resolve a `$ref` to one.
 */
async function newAjv(draft: Draft, verbose: boolean, validateSchema: boolean, regExp: RegExpEngine | undefined, meta: boolean): Promise<AjvLike> {
  const [core, formats] = await Promise.all([
    draft === 'draft-07' ? import('ajv') : import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]);
  type Ctor = new (opts: Record<string, unknown>) => AjvLike;
  const Ajv = ((core as unknown as { default: Ctor }).default ?? core) as Ctor;
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateFormats: true,
    allowUnionTypes: true,
    verbose,
    logger: false,
    validateSchema,
    meta,
    code: { regExp: regExp ?? compileLinear },
  });
  const addFormats = ((formats as unknown as { default: (a: AjvLike) => void }).default ?? formats) as (a: AjvLike) => void;
  addFormats(ajv);
  // ajv-formats' own `url` backtracks for minutes on a string of 100 KB (url-format.ts).
  ajv.addFormat('url', isUrl);
  // ajv's own `uniqueItems` compares every pair of items: minutes for 200,000 numbers (unique-items.ts).
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsKeyword(verbose));
  return ajv;
}

/**
 * Compiles `schema`. A schema ajv cannot compile (bad regex, unresolvable $ref, unknown
 * keyword in strict dialect) is reported as `SCHEMA_UNCOMPILABLE`, never thrown.
 */
export async function compileSchema(schema: unknown, opts: CompileOptions = {}): Promise<CompiledSchema | { error: Diagnostic }> {
  const validateSchema = opts.validateSchema ?? true;
  const ajv = await newAjv(draftOf(schema, opts.draft ?? '2020-12'), opts.verbose === true, validateSchema, opts.regExp, validateSchema || namesMetaSchema(schema, opts.refs ?? []));
  const mapErrors = opts.mapErrors ?? ((errors: readonly ErrorObject[], value: unknown) => valueErrors(errors, { data: value, schema }));
  try {
    for (const k of opts.keywords ?? []) ajv.addKeyword(k);
    for (const r of opts.refs ?? []) ajv.addSchema(r);
    const validate = ajv.compile(schema);
    const budgetMs = opts.budgetMs ?? CHECK_BUDGET_MS;
    return {
      check(value: unknown): Diagnostic[] {
        const valid = withinBudget(validate, value, budgetMs);
        if (valid === 'over-budget') {
          return [
            diag('SCHEMA_CHECK_TOO_COSTLY', `the value was not checked: its schema's check ran past ${budgetMs / 1000} s and was stopped`, {
              pointer: '',
              hint: "the schema multiplies its own work (alternatives such as anyOf that each recurse into the value's items); simplify it, or the value",
            }),
          ];
        }
        return valid ? [] : mapErrors(validate.errors ?? [], value);
      },
    };
  } catch (err) {
    return { error: diag('SCHEMA_UNCOMPILABLE', `schema cannot be compiled: ${err instanceof Error ? err.message : String(err)}`) };
  }
}

/** The context the checks run in, made once: `timeout` holds only for code a vm script runs. */
let bounded: { readonly context: Context; readonly script: Script } | undefined;

/**
 * `validate(value)`, stopped once it has run `ms`: V8 ends the script at the deadline, and with it
 * whatever the script called (ajv's validator, though compiled outside the script's context), on
 * this thread. ajv's code has no state to leave half made: its findings are set on the function
 * only when it returns.
 */
function withinBudget(validate: (value: unknown) => boolean, value: unknown, ms: number): boolean | 'over-budget' {
  bounded ??= { context: createContext({}), script: new Script('validate(value)', { filename: 'skillctl-schema-check' }) };
  const { context, script } = bounded;
  context.validate = validate;
  context.value = value;
  try {
    return script.runInContext(context, { timeout: ms }) === true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'over-budget';
    throw err;
  } finally {
    context.validate = undefined;
    context.value = undefined;
  }
}

/**
 * Whether a schema or one of its refs names a meta-schema anywhere but in its own `$schema`: a
 * `$ref` to one, or an `$id` that would clash with one. Such a schema is compiled with the
 * meta-schemas in the instance. Any other compiles the same without them: ajv reads `$schema`
 * only to check a schema against its meta-schema, which a schema already checked skips.
 */
function namesMetaSchema(schema: unknown, refs: readonly unknown[]): boolean {
  const own = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? { ...schema, $schema: undefined } : schema;
  return [own, ...refs].some((s) => JSON.stringify(s)?.includes('json-schema.org') === true);
}
