import { diag, type Diagnostic } from '../../diagnostics.js';
import { decodeFragment } from '../../json-schema/fragment.js';
import { resolveLocalRef } from '../local-ref.js';
import type { JsonSchema } from '../model.js';
import { childPointer } from '../pointer.js';
import type { DeterminismCheck } from './check.js';

interface Declared {
  readonly schema: JsonSchema | undefined;
  /** Where the property is declared, for the finding's pointer. */
  readonly pointer: string;
}

interface Walk {
  readonly root: JsonSchema;
  readonly rootPointer: string;
  readonly listed: ReadonlySet<string>;
  /** Every proper prefix of a listed path: `input.a` when `input.a.b` is listed. */
  readonly above: ReadonlySet<string>;
}

// Bounds the walk through nested properties and $ref chains (a $ref cycle never ends otherwise).
const MAX_DEPTH = 32;

function isObject(v: unknown): v is JsonSchema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The properties `schema` declares: its own `properties`, and those of its local `$ref` and of
 * its allOf/anyOf/oneOf branches (the same places FINGERPRINT_FIELD_UNKNOWN looks). A `$ref` to
 * another document cannot be followed here, so only the properties in sight are judged.
 */
function declared(w: Walk, schema: JsonSchema, at: string, out: Map<string, Declared> = new Map(), depth = 0, seen: Set<JsonSchema> = new Set()): Map<string, Declared> {
  // Each subschema once: branches that $ref one definition twice would otherwise double the walk at each level.
  if (depth > MAX_DEPTH || seen.has(schema)) return out;
  seen.add(schema);
  const props = schema.properties;
  if (isObject(props)) {
    for (const [name, child] of Object.entries(props)) {
      if (!out.has(name)) out.set(name, { schema: isObject(child) ? child : undefined, pointer: childPointer(childPointer(at, 'properties'), name) });
    }
  }
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(w.root, schema.$ref);
    // A local $ref's fragment is a JSON pointer into the root schema already (and decodes: it resolved).
    const pointer = decodeFragment(schema.$ref.slice(1));
    if (target !== undefined && pointer !== undefined) declared(w, target, w.rootPointer + pointer, out, depth + 1, seen);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) branches.forEach((b, i) => isObject(b) && declared(w, b, `${at}/${key}/${i}`, out, depth + 1, seen));
  }
  return out;
}

/**
 * The declared properties under `path` that no listed field covers. A property is covered when
 * its own path is listed, or when paths below it are and they cover each property it declares.
 */
function uncovered(w: Walk, schema: JsonSchema, at: string, path: string, out: { path: string; pointer: string }[], depth = 0): void {
  for (const [name, d] of declared(w, schema, at)) {
    const p = `${path}.${name}`;
    if (w.listed.has(p)) continue;
    const below = w.above.has(p) && d.schema !== undefined && depth < MAX_DEPTH ? declared(w, d.schema, d.pointer) : undefined;
    if (below !== undefined && below.size > 0 && d.schema !== undefined) uncovered(w, d.schema, d.pointer, p, out, depth + 1);
    else out.push({ path: p, pointer: d.pointer });
  }
}

function prefixes(fields: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of fields) for (let i = f.indexOf('.'); i !== -1; i = f.indexOf('.', i + 1)) out.add(f.slice(0, i));
  return out;
}

const SIDES = [
  { schema: 'input_schema', fields: 'args_fingerprint_fields', root: 'input', what: 'calls' },
  { schema: 'output_schema', fields: 'result_fingerprint_fields', root: 'result', what: 'results' },
] as const;

/**
 * Fingerprint completeness: two calls that differ in any declared input, or two results that
 * differ in any declared output, must not share a fingerprint, or a replay cannot tell them apart.
 */
export const fingerprintCoverage: DeterminismCheck = {
  name: 'fingerprints',
  check({ ep, pointer }) {
    const out: Diagnostic[] = [];
    for (const side of SIDES) {
      const schema = ep[side.schema];
      const fields = ep[side.fields];
      // An empty list is FINGERPRINT_INCOMPLETE already; an unreadable one cannot be judged.
      if (schema === undefined || fields === undefined || fields.length === 0 || fields.includes(side.root)) continue;
      const at = childPointer(pointer, side.schema);
      const found: { path: string; pointer: string }[] = [];
      uncovered({ root: schema, rootPointer: at, listed: new Set(fields), above: prefixes(fields) }, schema, at, side.root, found);
      for (const u of found) {
        out.push(
          diag('DETERMINISM_FINGERPRINT_UNCOVERED', `${side.schema} declares ${u.path} but ${side.fields} does not list it: ${side.what} that differ only in it get one fingerprint`, {
            pointer: u.pointer,
            hint: `add ${u.path} to ${side.fields}` + (side.root === 'result' ? ', or leave out of the result what cannot be reproduced (a time, a duration)' : ''),
          }),
        );
      }
    }
    return out;
  },
};
