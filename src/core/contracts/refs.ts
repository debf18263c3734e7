/**
 * Walking contract schemas and resolving their `$ref`s the way a JSON Schema 2020-12 engine
 * does: against the base URI of the enclosing resource (an `$id` opens a new one), to a whole
 * resource, a JSON-pointer fragment, or an `$anchor`.
 */
import { childPointer, parsePointer } from '../manifest/index.js';

type Obj = Record<string, unknown>;

const ONE = ['additionalProperties', 'propertyNames', 'contains', 'if', 'then', 'else', 'not', 'items', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** The meta-schema a contract may name; it is known to every engine, not part of a contract set. */
export const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface SchemaNode {
  readonly node: Obj;
  /** JSON pointer of the node in its document. */
  readonly pointer: string;
  /** Absolute base URI in force at the node. */
  readonly base: string;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Absolute URI without its fragment, or undefined when `ref` does not resolve against `base`. */
export function absolute(ref: string, base: string): { uri: string; fragment: string } | undefined {
  try {
    const u = new URL(ref, base);
    const fragment = decodeURIComponent(u.hash.slice(1));
    u.hash = '';
    return { uri: u.href, fragment };
  } catch {
    return undefined;
  }
}

/** Every schema object of `doc` (data under const, enum, default or examples is not walked). */
export function schemaNodes(doc: unknown, base: string): SchemaNode[] {
  const out: SchemaNode[] = [];
  const stack: [unknown, string, string][] = [[doc, '', base]];
  while (stack.length > 0) {
    const [node, pointer, outer] = stack.pop() as [unknown, string, string];
    if (!isObj(node)) continue;
    const here = typeof node.$id === 'string' ? (absolute(node.$id, outer)?.uri ?? outer) : outer;
    out.push({ node, pointer, base: here });
    const push = (v: unknown, p: string): void => void stack.push([v, p, here]);
    for (const k of ONE) if (k in node) push(node[k], childPointer(pointer, k));
    for (const k of LIST) {
      const v = node[k];
      if (Array.isArray(v)) v.forEach((s, i) => push(s, childPointer(childPointer(pointer, k), i)));
    }
    for (const k of MAP) {
      const v = node[k];
      if (isObj(v)) for (const [name, s] of Object.entries(v)) push(s, childPointer(childPointer(pointer, k), name));
    }
  }
  return out.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/** The resources (documents and embedded `$id`s) and anchors of a set of schema documents. */
export interface SchemaIndex {
  readonly resources: Map<string, { readonly node: Obj; readonly owner: string }>;
  readonly anchors: Map<string, Obj>;
}

export function newIndex(): SchemaIndex {
  return { resources: new Map(), anchors: new Map() };
}

/** Adds the document `doc` (with absolute `$id` `id`) to `index`, its resources owned by `owner`. */
export function indexDocument(index: SchemaIndex, doc: Obj, id: string, owner: string): void {
  for (const { node, base } of schemaNodes(doc, id)) {
    if (node === doc || typeof node.$id === 'string') index.resources.set(node === doc ? id : base, { node, owner });
    for (const k of ['$anchor', '$dynamicAnchor']) {
      const a = node[k];
      if (typeof a === 'string') index.anchors.set(`${base}#${a}`, node);
    }
  }
}

export type Resolved =
  | { readonly ok: true; readonly node: Obj | boolean | undefined; readonly base: string; readonly owner?: string }
  | { readonly ok: false; readonly reason: string; readonly uri?: string };

/** Resolves `$ref` `ref` found where the base URI is `base`. The dialect's meta-schema resolves to `node: undefined`. */
export function resolveRef(index: SchemaIndex, ref: string, base: string): Resolved {
  const abs = absolute(ref, base);
  if (abs === undefined) return { ok: false, reason: `${JSON.stringify(ref)} is not a valid URI reference` };
  const res = index.resources.get(abs.uri);
  if (res === undefined) {
    if (abs.uri === DIALECT) return { ok: true, node: undefined, base: abs.uri };
    return { ok: false, reason: `${abs.uri} is not in the contract set`, uri: abs.uri };
  }
  if (abs.fragment === '') return { ok: true, node: res.node, base: abs.uri, owner: res.owner };
  if (!abs.fragment.startsWith('/')) {
    const node = index.anchors.get(`${abs.uri}#${abs.fragment}`);
    return node === undefined
      ? { ok: false, reason: `${abs.uri} has no anchor ${JSON.stringify(abs.fragment)}`, uri: abs.uri }
      : { ok: true, node, base: abs.uri, owner: res.owner };
  }
  let cur: unknown = res.node;
  for (const seg of parsePointer(abs.fragment)) {
    cur = (isObj(cur) || Array.isArray(cur)) && Object.hasOwn(cur, seg) ? (cur as Obj)[seg] : undefined;
    if (cur === undefined) return { ok: false, reason: `${abs.uri}#${abs.fragment} points at nothing`, uri: abs.uri };
  }
  if (!isObj(cur) && typeof cur !== 'boolean') return { ok: false, reason: `${abs.uri}#${abs.fragment} is not a schema`, uri: abs.uri };
  return { ok: true, node: cur, base: abs.uri, owner: res.owner };
}

/** Where each schema object of the given documents sits: document label and JSON pointer. */
export function schemaPlaces(docs: readonly { readonly doc: unknown; readonly label: string; readonly base: string }[]): WeakMap<object, { contract: string; pointer: string }> {
  const places = new WeakMap<object, { contract: string; pointer: string }>();
  for (const { doc, label, base } of docs) {
    for (const { node, pointer } of schemaNodes(doc, base)) if (!places.has(node)) places.set(node, { contract: label, pointer });
  }
  return places;
}
