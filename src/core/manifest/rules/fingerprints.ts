import { diag, type Diagnostic } from '../../diagnostics.js';
import { closest } from '../../suggest.js';
import { resolveLocalRef } from '../local-ref.js';
import type { JsonSchema } from '../model.js';
import type { Rule } from './rule.js';

type Lookup = 'declared' | 'undeclared' | 'unknowable';

/**
 * Does `schema` declare the property path `segments`? Follows `properties`, local `$ref`s and
 * the branches of `allOf`/`anyOf`/`oneOf`. A `$ref` to another document (a payload contract)
 * cannot be followed here, so such paths are "unknowable" rather than wrong.
 */
function lookup(root: JsonSchema, schema: JsonSchema, segments: readonly string[], depth = 0, seen: Map<JsonSchema, Set<number>> = new Map()): Lookup {
  if (segments.length === 0) return 'declared';
  if (depth > 32) return 'unknowable';
  // Each subschema once per remaining path: branches that $ref one definition several times would
  // otherwise multiply the walk at every level (3 refs, 32 levels: minutes). A second visit finds
  // nothing the first did not: 'declared' ended the search, 'unknowable' was recorded on the way up.
  const visited = seen.get(schema) ?? new Set<number>();
  if (visited.has(segments.length)) return 'undeclared';
  visited.add(segments.length);
  seen.set(schema, visited);
  let sawUnknowable = false;
  const candidates: JsonSchema[] = [schema];
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    if (target === undefined) sawUnknowable = true;
    else candidates.push(target);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) if (b !== null && typeof b === 'object') candidates.push(b as JsonSchema);
  }
  const [head, ...rest] = segments as [string, ...string[]];
  for (const c of candidates) {
    if (c !== schema) {
      const r = lookup(root, c, segments, depth + 1, seen);
      if (r === 'declared') return r;
      if (r === 'unknowable') sawUnknowable = true;
      continue;
    }
    const props = c.properties;
    if (props !== null && typeof props === 'object' && head in props) {
      const child = (props as Record<string, unknown>)[head];
      if (child !== null && typeof child === 'object') {
        const r = lookup(root, child as JsonSchema, rest, depth + 1, seen);
        if (r === 'declared') return r;
        if (r === 'unknowable') sawUnknowable = true;
      } else if (rest.length === 0) {
        return 'declared';
      }
    }
  }
  return sawUnknowable ? 'unknowable' : 'undeclared';
}

/** The property names declared at `segments` under plain `properties` (for a "did you mean"). */
function declaredAt(schema: JsonSchema, segments: readonly string[]): string[] {
  let cur: unknown = schema;
  for (const seg of segments) {
    const props = (cur as JsonSchema | null)?.properties;
    if (props === null || typeof props !== 'object' || !Object.hasOwn(props, seg)) return [];
    cur = (props as Record<string, unknown>)[seg];
    if (cur === null || typeof cur !== 'object') return [];
  }
  const props = (cur as JsonSchema).properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

/** The fix of a path the schema does not declare: the nearest declared name, else declare it. */
function undeclaredHint(schema: JsonSchema, root: string, segments: readonly string[]): string {
  const parent = segments.slice(0, -1);
  const guess = closest(segments[segments.length - 1] ?? '', declaredAt(schema, parent));
  const declare = `declare ${segments.join('.')} under properties`;
  return guess !== undefined ? `did you mean ${[root, ...parent, guess].join('.')}? If not, ${declare}` : `${declare}, or fix the path`;
}

/** The fix of a path without an allowed root: a bare name (`path`) gets the prefix, a misspelt root the nearest. */
function prefixHint(path: string, roots: readonly string[]): string | undefined {
  const [head = '', ...rest] = path.split('.');
  if (head === '' || rest.includes('')) return undefined;
  if (rest.length === 0) return roots.length === 1 ? `write it as ${roots[0] ?? ''}.${path}` : undefined;
  const guess = closest(head, roots);
  return guess !== undefined ? `did you mean ${[guess, ...rest].join('.')}?` : undefined;
}

const PREFIX = { args_fingerprint_fields: 'input', result_fingerprint_fields: 'result' } as const;
const EXAMPLE = { args_fingerprint_fields: 'input.path', result_fingerprint_fields: 'result.summary' } as const;

export const fingerprints: Rule = {
  name: 'fingerprints',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer, label } of entrypoints) {
      for (const field of ['args_fingerprint_fields', 'result_fingerprint_fields'] as const) {
        if (ep[field]?.length === 0) {
          out.push(
            diag('FINGERPRINT_INCOMPLETE', `entrypoint ${label} has no ${field}`, {
              pointer: `${pointer}/${field}`,
              hint: `list the ${PREFIX[field]}.<property> paths that identify a call, e.g. ${EXAMPLE[field]}`,
            }),
          );
        }
      }
      const check = (field: keyof typeof PREFIX | 'side_effect_fingerprint_fields'): void => {
        (ep[field] ?? []).forEach((path, i) => {
          const [root, ...segments] = path.split('.');
          const schemaFor: Record<string, JsonSchema | undefined> = { input: ep.input_schema, result: ep.output_schema };
          const allowedRoots = field === 'side_effect_fingerprint_fields' ? ['input', 'result', 'side_effects'] : [PREFIX[field]];
          const at = `${pointer}/${field}/${i}`;
          if (root === undefined || !allowedRoots.includes(root) || segments.some((s) => s === '')) {
            const hint = prefixHint(path, allowedRoots);
            out.push(
              diag('FINGERPRINT_FIELD_UNKNOWN', `${field} entry ${JSON.stringify(path)} must start with ${allowedRoots.map((r) => r + '.').join(' or ')}`, {
                pointer: at,
                ...(hint !== undefined ? { hint } : {}),
              }),
            );
            return;
          }
          // side_effects.* names observed effects, not schema fields; an unreadable schema cannot be looked into.
          const schema = schemaFor[root];
          if (schema === undefined) return;
          if (lookup(schema, schema, segments) === 'undeclared') {
            out.push(
              diag('FINGERPRINT_FIELD_UNKNOWN', `${JSON.stringify(path)} is not a property declared by ${root === 'input' ? 'input_schema' : 'output_schema'}`, {
                pointer: at,
                hint: undeclaredHint(schema, root, segments),
              }),
            );
          }
        });
      };
      check('args_fingerprint_fields');
      check('result_fingerprint_fields');
      check('side_effect_fingerprint_fields');
    }
    return out;
  },
};
