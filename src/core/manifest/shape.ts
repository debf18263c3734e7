/**
 * Bounds on a document's shape, besides its size: nesting depth, keys in one mapping, values in
 * the whole document. The size bound alone let a 620 KB manifest of 40,000 keys cost seconds in
 * every step that is linear per key and quadratic over a mapping (duplicate checks, position
 * lookups, one finding per unknown key); these bounds answer such a document at once, with one
 * finding, before any of that work (docs/formats/manifest.md, "Bounds").
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { childPointer } from './pointer.js';

export const MANIFEST_MAX_DEPTH = 64;
/** Keys in one mapping (object). The widest mapping of a real manifest, lock or policy has tens. */
export const MANIFEST_MAX_KEYS = 10_000;
/** Keys, values and entries in one document, at every depth. A lock of 5,000 pins has about 100,000. */
export const MANIFEST_MAX_NODES = 200_000;

export interface ShapeLimits {
  readonly maxDepth: number;
  readonly maxKeys: number;
  readonly maxNodes: number;
}

export const DEFAULT_SHAPE_LIMITS: ShapeLimits = { maxDepth: MANIFEST_MAX_DEPTH, maxKeys: MANIFEST_MAX_KEYS, maxNodes: MANIFEST_MAX_NODES };

export interface Where {
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
}

export function tooDeep(limits: ShapeLimits, where: Where = {}, extra = ''): Diagnostic {
  return diag('MANIFEST_TOO_DEEP', `nesting exceeds ${limits.maxDepth} levels${extra}`, where);
}

export function tooManyKeys(limits: ShapeLimits, subject: string, where: Where = {}): Diagnostic {
  return diag('MANIFEST_TOO_MANY_KEYS', `a mapping of the ${subject} has more than ${limits.maxKeys} keys`, {
    ...where,
    hint: 'a document this wide is not one skillctl writes or reads; split the data or move it into a file of its own',
  });
}

export function tooManyNodes(limits: ShapeLimits, subject: string, where: Where = {}): Diagnostic {
  return diag('MANIFEST_TOO_MANY_NODES', `the ${subject} holds more than ${limits.maxNodes} keys and values`, {
    ...where,
    hint: 'move large data out of the document into files of its own',
  });
}

interface Frame {
  readonly value: unknown;
  readonly key: string | number;
  readonly parent: Frame | undefined;
  readonly depth: number;
}

function pointerOf(f: Frame): string {
  const segments: (string | number)[] = [];
  for (let at: Frame | undefined = f; at?.parent !== undefined; at = at.parent) segments.push(at.key);
  return segments.reverse().reduce<string>((p, s) => childPointer(p, s), '');
}

/**
 * Checks parsed data against the limits in one iterative pass (the data may be deeper than the
 * stack allows): the first bound broken, with the pointer where it broke, or undefined. Pointers
 * are built only for that one place.
 */
export function checkDataShape(root: unknown, limits: ShapeLimits, subject: string): Diagnostic | undefined {
  let nodes = 0;
  const stack: Frame[] = [{ value: root, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const f = stack.pop() as Frame;
    // As the YAML walk counts it: the root is at depth 0, and no value may be deeper than the bound.
    if (f.depth > limits.maxDepth) return tooDeep(limits, { pointer: pointerOf(f) });
    if (++nodes > limits.maxNodes) return tooManyNodes(limits, subject, { pointer: pointerOf(f) });
    const value = f.value;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: f, depth: f.depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxKeys) return tooManyKeys(limits, subject, { pointer: pointerOf(f) });
    nodes += keys.length;
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      stack.push({ value: (value as Record<string, unknown>)[k], key: k, parent: f, depth: f.depth + 1 });
    }
  }
  return undefined;
}
