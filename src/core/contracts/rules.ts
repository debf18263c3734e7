/**
 * The rules of a contract, listed by where they apply in the payload (`contract show`). `$ref`s
 * are followed into the contracts and definitions they name, so a rule shows up where it bites:
 * `/thumbnail_texts/*  maxWords 6`, not under `$defs`.
 */
import type { Code } from '../diagnostics.js';
import { childPointer } from '../manifest/index.js';
import type { Contract, ContractSet } from './model.js';
import { absolute, indexDocument, newIndex, resolveRef, schemaPlaces, type SchemaIndex } from './refs.js';
import { ruleCode } from './rule-codes.js';

export interface ContractRule {
  /** Where in the payload: a JSON pointer in which `*` stands for any array item or property. */
  readonly path: string;
  readonly keyword: string;
  readonly value: unknown;
  /** The code a violation of the rule is reported with. */
  readonly code: Code;
  /** The schema object holding the rule: contract name and JSON pointer, e.g. ctr.output.v1#/$defs/thumbnail_text. */
  readonly source: string;
}

type Obj = Record<string, unknown>;

interface Walk {
  readonly index: SchemaIndex;
  readonly places: WeakMap<object, { contract: string; pointer: string }>;
  readonly seen: Set<string>;
  readonly out: ContractRule[];
}

function visit(w: Walk, node: unknown, path: string, base: string, depth: number): void {
  if (node === null || typeof node !== 'object' || depth > 64) return;
  const s = node as Obj;
  const place = w.places.get(s);
  const source = place !== undefined ? `${place.contract}#${place.pointer}` : '(schema)';
  if (w.seen.has(`${source}@${path}`)) return;
  w.seen.add(`${source}@${path}`);
  for (const [keyword, value] of Object.entries(s)) {
    const code = ruleCode(keyword);
    if (code !== undefined) w.out.push({ path: path === '' ? '/' : path, keyword, value, code, source });
  }
  if (s.additionalProperties === false || s.unevaluatedProperties === false) {
    const keyword = s.additionalProperties === false ? 'additionalProperties' : 'unevaluatedProperties';
    w.out.push({ path: path === '' ? '/' : path, keyword, value: false, code: 'PAYLOAD_FIELD_UNKNOWN', source });
  }
  const here = typeof s.$id === 'string' ? (absolute(s.$id, base)?.uri ?? base) : base;
  const next = (child: unknown, p: string): void => visit(w, child, p, here, depth + 1);
  if (s.properties !== null && typeof s.properties === 'object') for (const [k, v] of Object.entries(s.properties)) next(v, childPointer(path, k));
  for (const k of ['items', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties']) next(s[k], `${path}/*`);
  if (Array.isArray(s.prefixItems)) s.prefixItems.forEach((v, i) => next(v, childPointer(path, i)));
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((v) => next(v, path));
  for (const k of ['if', 'then', 'else', 'not']) next(s[k], path);
  if (typeof s.$ref === 'string') {
    const r = resolveRef(w.index, s.$ref, here);
    if (r.ok) visit(w, r.node, path, r.base, depth + 1);
  }
}

/** Every rule of `contract`, sorted by payload path, then keyword. */
export function contractRules(set: ContractSet, contract: Contract): ContractRule[] {
  const index = newIndex();
  for (const c of set.contracts) indexDocument(index, c.schema as Obj, c.id, c.name);
  const places = schemaPlaces(set.contracts.map((c) => ({ doc: c.schema, label: c.name, base: c.id })));
  const w: Walk = { index, places, seen: new Set(), out: [] };
  visit(w, contract.schema, '', contract.id, 0);
  const key = (r: ContractRule): string => `${r.path}\u0000${r.keyword}\u0000${r.source}`;
  return w.out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
