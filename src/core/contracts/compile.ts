/**
 * Compiles a schema that may `$ref` contracts (a contract itself, or a manifest entrypoint's
 * input_schema / output_schema) into a payload validator, with skillctl's keywords and the
 * contract set as ajv refs. ajv stays behind the lazy `compileSchema`.
 */
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { compileSchema, type CompileOptions } from '../json-schema/index.js';
import { childPointer } from '../manifest/index.js';
import { ajvKeywords } from './ajv-keywords.js';
import { payloadErrors } from './errors.js';
import type { KeywordContext } from './keywords/index.js';
import type { Contract, ContractSet } from './model.js';
import { schemaPlaces } from './refs.js';

/** What a check may know about the exchange besides the payload. */
export interface PayloadContext {
  /** The input payload the skill was given: rules relating output to input (addressesSubject, noColdOpen) need it. */
  readonly input?: unknown;
}

export interface PayloadValidator {
  /**
   * Every violation of `value` (errors, exit 4) and every rule that could not run (warnings).
   * Empty, or warnings only, when the payload conforms. Sorted by pointer, then code.
   */
  check(value: unknown, context?: PayloadContext): Diagnostic[];
}

const MAX_DEPTH = 256;

/** C1 for values handed over in-process: only null, booleans, finite numbers, strings, arrays and plain objects. */
export function jsonValueIssues(value: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  const onPath = new Set<object>();
  const visit = (v: unknown, pointer: string, depth: number): void => {
    const bad = (what: string): void => void out.push(diag('PAYLOAD_NOT_JSON', `${pointer === '' ? 'the payload' : `\`${pointer}\``} is ${what}, not a JSON value`, { pointer }));
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : bad(String(v));
    if (typeof v !== 'object') return bad(typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`);
    if (depth > MAX_DEPTH) return bad(`nested deeper than ${MAX_DEPTH} levels`);
    if (onPath.has(v)) return bad('a circular reference');
    const proto = Object.getPrototypeOf(v) as unknown;
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return bad(`a ${(v as object).constructor?.name ?? 'non-plain object'}`);
    onPath.add(v);
    for (const [k, c] of Object.entries(v)) visit(c, childPointer(pointer, k), depth + 1);
    onPath.delete(v);
  };
  visit(value, '', 0);
  return out;
}

/** Maps every schema object of the set's contracts (and of `extra`) to its place, for rule hints. */
function locator(set: ContractSet, extra: unknown, label: string): (o: unknown) => { contract: string; pointer: string } | undefined {
  const docs = set.contracts.map((c) => ({ doc: c.schema, label: c.name, base: c.id }));
  const places = schemaPlaces([...docs, { doc: extra, label, base: 'x-skillctl:/schema' }]);
  return (o) => (o !== null && typeof o === 'object' ? places.get(o) : undefined);
}

/**
 * ajv options for `compileSchema`: the set's contracts as refs, skillctl's keywords (reading the
 * exchange through `context()` at check time) and the violation mapper. For callers that need
 * compileSchema itself; `compilePayloadSchema` is the usual entry point.
 */
export function contractCompileOptions(set: ContractSet, context: () => KeywordContext, schema?: unknown, label = 'schema'): CompileOptions {
  const locate = locator(set, schema, label);
  return {
    refs: set.contracts.map((c) => c.schema as Record<string, unknown>),
    keywords: ajvKeywords(context),
    verbose: true,
    mapErrors: (errors) => payloadErrors(errors, locate),
  };
}

/**
 * A validator for `schema`, which may `$ref` any contract of `set` by its `$id`. A schema that
 * cannot be compiled is reported as `CONTRACT_MALFORMED`, never thrown.
 */
export async function compilePayloadSchema(schema: unknown, set: ContractSet, label = 'schema'): Promise<PayloadValidator | { error: Diagnostic }> {
  let current: KeywordContext = { unchecked: [] };
  const compiled = await compileSchema(schema, contractCompileOptions(set, () => current, schema, label));
  if ('error' in compiled) {
    return { error: diag('CONTRACT_MALFORMED', `${label}: ${compiled.error.message}`, { hint: 'run `skillctl contract list` to see the findings of every contract' }) };
  }
  return {
    check(value, context = {}) {
      const notJson = jsonValueIssues(value);
      if (notJson.length > 0) return notJson;
      // Checks are synchronous, so the context set here is the one every keyword of this call sees.
      current = { ...('input' in context ? { input: { value: context.input } } : {}), unchecked: [] };
      try {
        const found = compiled.check(value);
        const skipped = current.unchecked.map((u) => diag('PAYLOAD_RULE_UNCHECKED', u.message, { pointer: u.pointer, hint: 'give the input payload (validate --input FILE)' }));
        return sortDiagnostics([...found, ...skipped]);
      } finally {
        current = { unchecked: [] };
      }
    },
  };
}

/** A validator for one contract of the set. */
export function compileContract(set: ContractSet, contract: Contract): Promise<PayloadValidator | { error: Diagnostic }> {
  return compilePayloadSchema({ $ref: contract.id }, set, contract.name);
}
