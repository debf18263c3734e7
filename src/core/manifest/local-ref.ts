import { fragmentSegment } from '../json-schema/fragment.js';
import type { JsonSchema } from './model.js';

/**
 * The schema a local `$ref` (`#/$defs/x`) of `root` points at, or undefined: a reference to
 * another document (a payload contract) cannot be followed from the manifest alone.
 */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const seg = fragmentSegment(raw);
    if (seg === undefined || cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur !== null && typeof cur === 'object' ? (cur as JsonSchema) : undefined;
}
