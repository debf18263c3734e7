/**
 * `$ref` cycles that never move into the payload. A schema may refer to itself through
 * `properties` or `items` (a tree of any depth, each level one level down the payload), but a
 * cycle of applicators that stay on the same value (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`,
 * `if`/`then`/`else`, `dependentSchemas`) never ends: ajv recursed until the stack overflowed and
 * the contract was reported with a RangeError's text. Such a cycle is found here, before
 * compilation, by an iterative depth-first search, and reported as CONTRACT_REF_CYCLE.
 */
import { childPointer } from '../manifest/index.js';
import { resolveRef, schemaNodes, type SchemaIndex } from './refs.js';

type Obj = Record<string, unknown>;

export interface RefCycle {
  /** The contract whose `$ref` closes the cycle. */
  readonly owner: string;
  /** Pointer of that `$ref` in its contract. */
  readonly pointer: string;
  /** The pointers of the cycle's `$ref`s, in order, for the message. */
  readonly path: readonly string[];
}

interface Place {
  readonly base: string;
  readonly owner: string;
  readonly pointer: string;
}

const ONE = ['not', 'if', 'then', 'else'];
const LIST = ['allOf', 'anyOf', 'oneOf'];

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The schemas applied to the same value as `node`, with the pointer of the keyword that applies each. */
function inPlace(index: SchemaIndex, node: Obj, place: Place): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const k of ['$ref', '$dynamicRef']) {
    const ref = node[k];
    if (typeof ref !== 'string') continue;
    const r = resolveRef(index, ref, place.base);
    if (r.ok && isObj(r.node)) out.push([r.node, childPointer(place.pointer, k)]);
  }
  for (const k of ONE) if (isObj(node[k])) out.push([node[k] as Obj, childPointer(place.pointer, k)]);
  for (const k of LIST) {
    const v = node[k];
    if (Array.isArray(v)) v.forEach((s, i) => isObj(s) && out.push([s, childPointer(childPointer(place.pointer, k), i)]));
  }
  const dep = node.dependentSchemas;
  if (isObj(dep)) for (const [name, s] of Object.entries(dep)) if (isObj(s)) out.push([s, childPointer(childPointer(place.pointer, 'dependentSchemas'), name)]);
  return out;
}

/** Every cycle of same-value applicators among the documents (one per cycle found), without recursion. */
export function findRefCycles(index: SchemaIndex, docs: readonly { readonly doc: Obj; readonly id: string; readonly owner: string }[]): RefCycle[] {
  const places = new Map<Obj, Place>();
  for (const { doc, id, owner } of docs) {
    for (const { node, pointer, base } of schemaNodes(doc, id)) if (!places.has(node)) places.set(node, { base, owner, pointer });
  }
  const DONE = 2;
  const ON_PATH = 1;
  const state = new Map<Obj, number>();
  const cycles: RefCycle[] = [];
  for (const start of places.keys()) {
    if (state.has(start)) continue;
    // Each frame: a node, its in-place children, the next child to visit, the edge that led here.
    const stack: { node: Obj; children: [Obj, string][]; next: number; via: string }[] = [];
    const enter = (node: Obj, via: string): void => {
      const place = places.get(node);
      state.set(node, ON_PATH);
      stack.push({ node, children: place === undefined ? [] : inPlace(index, node, place), next: 0, via });
    };
    enter(start, '');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const edge = top.children[top.next++];
      if (edge === undefined) {
        state.set(top.node, DONE);
        stack.pop();
        continue;
      }
      const [child, via] = edge;
      const s = state.get(child);
      if (s === undefined) enter(child, via);
      else if (s === ON_PATH) {
        const from = stack.findIndex((f) => f.node === child);
        const path = [...stack.slice(from + 1).map((f) => f.via), via];
        const owner = places.get(top.node)?.owner ?? '';
        cycles.push({ owner, pointer: via, path });
      }
    }
  }
  return cycles;
}
