import { diag, type Diagnostic } from '../../diagnostics.js';
// builtin.ts directly, not the contracts index: the contracts folder uses the manifest parser, and
// this list of shipped documents is all the rule needs (no import cycle).
import { BUILTIN_CONTRACT_BASE, BUILTIN_SOURCES } from '../../contracts/builtin.js';
import { decodeFragment } from '../../json-schema/fragment.js';
import { childPointer, parsePointer } from '../pointer.js';
import type { Rule } from './rule.js';

const BUILTIN = new Map(BUILTIN_SOURCES.map((s) => [(s.data as { $id: string }).$id, s.data]));

/** Why `ref` (already known to start with the built-in base) does not name a shipped contract, if it does not. */
function problem(ref: string): string | undefined {
  const [uri = '', fragment] = ref.split('#', 2);
  const doc = BUILTIN.get(uri);
  if (doc === undefined) return `${uri} is not a contract shipped with skillctl`;
  if (fragment === undefined || fragment === '' || !fragment.startsWith('/')) return undefined;
  const pointer = decodeFragment(fragment);
  if (pointer === undefined) return `#${fragment} is not a valid pointer (a malformed %-escape)`;
  let cur: unknown = doc;
  for (const seg of parsePointer(pointer)) {
    cur = cur !== null && typeof cur === 'object' && Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur !== null && typeof cur === 'object' ? undefined : `#${fragment} points at nothing in ${uri}`;
}

/**
 * A `$ref` from an entrypoint schema into skillctl's built-in contracts names one that exists.
 * Other documents (user contracts) are known only at run time, with --contracts.
 */
export const contractRefs: Rule = {
  name: 'contract-refs',
  check({ entrypoints }) {
    const out: Diagnostic[] = [];
    for (const { ep, pointer } of entrypoints) {
      for (const field of ['input_schema', 'output_schema', 'error_schema'] as const) {
        // An unreadable schema is absent from the view: the walk below starts at undefined and stops.
        const stack: [unknown, string][] = [[ep[field], childPointer(pointer, field)]];
        while (stack.length > 0) {
          const [node, at] = stack.pop() as [unknown, string];
          if (node === null || typeof node !== 'object') continue;
          for (const [k, v] of Object.entries(node)) {
            const here = childPointer(at, k);
            const why = k === '$ref' && typeof v === 'string' && v.startsWith(BUILTIN_CONTRACT_BASE) ? problem(v) : undefined;
            if (why !== undefined) {
              out.push(diag('CONTRACT_REF_UNRESOLVED', `$ref ${JSON.stringify(v)}: ${why}`, { pointer: here, hint: 'run `skillctl contract list` for the names and $ids' }));
            }
            stack.push([v, here]);
          }
        }
      }
    }
    return out;
  },
};
