/**
 * The checks the full parser's document gets before its data is used: duplicate keys, keys
 * that are not strings or could alter prototypes, tags and numbers JSON cannot carry, and the
 * shape bounds (depth, keys per mapping, nodes). One iterative pass, linear in the document:
 * duplicate keys are found with a set per mapping, not by the parser's pairwise comparison
 * (`yaml`'s `uniqueKeys`, quadratic in the keys of a mapping).
 */
import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Node, type Scalar } from 'yaml';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Position } from './document.js';
import { FORBIDDEN_KEYS } from './json-strict.js';
import { childPointer } from './pointer.js';
import { tooDeep, tooManyKeys, tooManyNodes, type ShapeLimits } from './shape.js';

export interface WalkResult {
  /** Keys that appear twice in one mapping: errors whatever else the parser found. */
  readonly duplicates: Diagnostic[];
  /** A shape bound broken (only the first is reported: the document is refused whole). */
  readonly shape?: Diagnostic;
  /** Everything else the checks found. */
  readonly findings: Diagnostic[];
}

// Tags the YAML core schema resolves to JSON values; any other tag changes what a value means.
const JSON_TAGS: ReadonlySet<string> = new Set([
  'tag:yaml.org,2002:str',
  'tag:yaml.org,2002:int',
  'tag:yaml.org,2002:float',
  'tag:yaml.org,2002:bool',
  'tag:yaml.org,2002:null',
  'tag:yaml.org,2002:map',
  'tag:yaml.org,2002:seq',
]);

function explicitTag(source: string, node: Node): string | undefined {
  // `node.tag` is also set for implicitly resolved scalars; only a tag written in the source counts.
  const start = node.range?.[0];
  if (start === undefined || node.tag === undefined) return undefined;
  const before = source.slice(Math.max(0, start - 128), start);
  return /![^\s]*\s*$/.test(before) || source.startsWith('!', start) ? node.tag : undefined;
}

function checkScalar(source: string, node: Scalar, where: { pointer: string } & Partial<Position>): Diagnostic | undefined {
  const v = node.value;
  const tag = explicitTag(source, node);
  if (tag !== undefined && !JSON_TAGS.has(tag)) {
    return diag('MANIFEST_VALUE_NOT_JSON', `value tagged ${tag} is not a plain JSON value`, { ...where, hint: 'remove the tag' });
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return diag('MANIFEST_VALUE_NOT_JSON', `${String(v)} is not a JSON number`, { ...where, hint: 'quote it if a string is meant' });
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
      return diag('MANIFEST_VALUE_NOT_JSON', `integer ${node.source ?? String(v)} is outside ±(2^53-1) and would lose precision`, { ...where, hint: 'write it as a string' });
    }
  } else if (v !== null && typeof v === 'object') {
    return diag('MANIFEST_VALUE_NOT_JSON', `value tagged ${node.tag ?? '(unknown)'} is not a JSON value`, { ...where, hint: 'remove the tag' });
  }
  return undefined;
}

/** Walks the parsed document from its root, depth first, without recursion. */
export function walkDocument(root: Node | null, source: string, lc: LineCounter, limits: ShapeLimits): WalkResult {
  const at = (node: { range?: [number, number, number] | null } | null | undefined): Partial<Position> => {
    const start = node?.range?.[0];
    if (start === undefined) return {};
    const p = lc.linePos(start);
    return { line: p.line, column: p.col };
  };
  const duplicates: Diagnostic[] = [];
  const findings: Diagnostic[] = [];
  let nodes = 0;
  let tooDeepSeen = false;
  const stack: [Node | null, string, number][] = [[root, '', 0]];
  while (stack.length > 0) {
    const [node, pointer, depth] = stack.pop() as [Node | null, string, number];
    if (node === null || isAlias(node)) continue;
    if (depth > limits.maxDepth) {
      // Reported once; deeper levels of the same branch add nothing.
      if (!tooDeepSeen) findings.push(tooDeep(limits, { pointer, ...at(node) }));
      tooDeepSeen = true;
      continue;
    }
    if (++nodes > limits.maxNodes) return { duplicates, shape: tooManyNodes(limits, 'document', { pointer, ...at(node) }), findings };
    if (isScalar(node)) {
      const found = checkScalar(source, node, { pointer, ...at(node) });
      if (found !== undefined) findings.push(found);
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push([node.items[i] as Node | null, childPointer(pointer, i), depth + 1]);
    } else if (isMap(node)) {
      if (node.items.length > limits.maxKeys) return { duplicates, shape: tooManyKeys(limits, 'document', { pointer, ...at(node) }), findings };
      nodes += node.items.length;
      const seen = new Set<string>();
      const children: [Node | null, string, number][] = [];
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (!isScalar(key) || typeof key.value !== 'string') {
          const shown = isScalar(key) ? String(key.value) : 'a collection';
          findings.push(diag('MANIFEST_VALUE_NOT_JSON', `mapping key ${shown} is not a string`, { pointer, ...at(key ?? node), hint: 'quote the key' }));
          continue;
        }
        const name = key.value;
        const child = childPointer(pointer, name);
        if (seen.has(name)) {
          duplicates.push(
            diag('MANIFEST_DUPLICATE_KEY', `key ${JSON.stringify(name)} appears twice in the same mapping`, { ...at(key), hint: 'keep one; a parser would silently keep either' }),
          );
          continue;
        }
        seen.add(name);
        if (FORBIDDEN_KEYS.has(name)) {
          findings.push(
            diag('MANIFEST_FORBIDDEN_KEY', `key ${JSON.stringify(name)} is not allowed`, {
              pointer: child,
              ...at(key),
              hint: 'rename the key; these names can alter object prototypes in consumers',
            }),
          );
          continue;
        }
        children.push([pair.value as Node | null, child, depth + 1]);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as [Node | null, string, number]);
    }
  }
  return { duplicates, findings };
}
