/**
 * A fast path for JSON documents: refuses everything `parseDocumentBytes` refuses (duplicate
 * keys, prototype keys, nesting beyond the bound, numbers JSON or JavaScript cannot carry exactly,
 * objects or documents over the shape bounds of shape.ts). It never reports: any refusal sends the
 * document down the full path, which finds the problem again and says where it is. Valid JSON
 * yields exactly the data the full path yields, at a fraction of the cost, so verifying a thousand
 * JSON manifests or a large lock file does not wait on the YAML parser.
 *
 * The engine's own JSON.parse builds the data (native code: several times faster than any parser
 * written in JavaScript, which a short-lived CLI runs mostly cold). What JSON.parse forgives is
 * checked after it: one walk over the data for the bounds, prototype keys and numbers, and a count
 * of the keys written in the text, which exceeds the keys the data holds exactly when a key was
 * repeated in some object (JSON.parse keeps the last).
 */

import { MANIFEST_MAX_KEYS, MANIFEST_MAX_NODES } from './shape.js';

/** Keys that can alter object prototypes in consumers: refused by every reader of untrusted documents. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Keys in one object, and keys and values in the document; the manifest's bounds by default (shape.ts). */
export interface JsonCounts {
  readonly maxKeys: number;
  readonly maxNodes: number;
}

// In text JSON.parse accepted, every quote outside a string opens one, so this finds each string
// token in order; the group says whether a colon follows it, that is, whether it is a key.
const STRING_TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"[ \t\n\r]*(:)?/g;

function keysWritten(text: string): number {
  let keys = 0;
  STRING_TOKEN.lastIndex = 0;
  for (let m = STRING_TOKEN.exec(text); m !== null; m = STRING_TOKEN.exec(text)) if (m[1] !== undefined) keys++;
  return keys;
}

export function parseJsonStrict(text: string, maxDepth: number, counts: JsonCounts = { maxKeys: MANIFEST_MAX_KEYS, maxNodes: MANIFEST_MAX_NODES }): { data: unknown } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  let nodes = 0;
  let keys = 0;
  // False at the first thing the full path refuses; depth is checked before descending, so the
  // recursion is as deep as the bound at most.
  const fits = (v: unknown, depth: number): boolean => {
    if (++nodes > counts.maxNodes) return false;
    if (typeof v === 'number') return Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v));
    if (typeof v !== 'object' || v === null) return true;
    if (depth >= maxDepth) return false;
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) if (!fits(item, depth + 1)) return false;
      return true;
    }
    const own = Object.keys(v);
    if (own.length > counts.maxKeys) return false;
    keys += own.length;
    nodes += own.length;
    for (const k of own) if (FORBIDDEN_KEYS.has(k) || !fits((v as Record<string, unknown>)[k], depth + 1)) return false;
    return true;
  };
  if (!fits(data, 0) || nodes > counts.maxNodes) return undefined;
  return keysWritten(text) === keys ? { data } : undefined;
}
