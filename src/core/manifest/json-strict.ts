/**
 * A fast path for JSON documents: one pass that builds the data and refuses everything
 * `parseDocumentBytes` refuses (duplicate keys, prototype keys, nesting beyond the bound, numbers
 * JSON or JavaScript cannot carry exactly, objects or documents over the shape bounds of shape.ts). It never reports: any refusal sends the document down
 * the full path, which finds the problem again and says where it is. Valid JSON yields exactly the
 * data the full path yields, at a fraction of the cost, so verifying a thousand JSON manifests or
 * a large lock file does not wait on the YAML parser.
 */

import { MANIFEST_MAX_KEYS, MANIFEST_MAX_NODES } from './shape.js';

/** Keys that can alter object prototypes in consumers: refused by every reader of untrusted documents. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

class Refused extends Error {}

function refuse(): never {
  throw new Refused();
}

/** Keys in one object, and keys and values in the document; the manifest's bounds by default (shape.ts). */
export interface JsonCounts {
  readonly maxKeys: number;
  readonly maxNodes: number;
}

export function parseJsonStrict(text: string, maxDepth: number, counts: JsonCounts = { maxKeys: MANIFEST_MAX_KEYS, maxNodes: MANIFEST_MAX_NODES }): { data: unknown } | undefined {
  let i = 0;
  let nodes = 0;
  const n = text.length;

  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };

  // A run of characters that need no decoding: anything but a quote, a backslash or a control character.
  const PLAIN = /[^"\\\u0000-\u001f]*/y;
  const string = (): string => {
    // i is at the opening quote.
    const start = ++i;
    PLAIN.lastIndex = i;
    PLAIN.exec(text);
    i = PLAIN.lastIndex;
    if (text.charCodeAt(i) === 0x22) return text.slice(start, i++);
    // Escapes: find the closing quote, then let JSON.parse decode exactly (and reject bad escapes).
    for (;;) {
      if (i >= n) refuse();
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) refuse();
      i += c === 0x5c ? 2 : 1;
    }
    const raw = text.slice(start, i);
    i++;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return refuse();
    }
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const number = (): number => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null || m[0] === '' || m[0] === '-') refuse();
    i += m[0].length;
    const v = Number(m[0]);
    if (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))) refuse();
    return v;
  };

  const literal = (word: string, value: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return value;
    }
    return refuse();
  };

  const value = (depth: number): unknown => {
    if (++nodes > counts.maxNodes) refuse();
    ws();
    if (i >= n) refuse();
    const c = text.charCodeAt(i);
    if (c === 0x7b) {
      if (depth >= maxDepth) refuse();
      i++;
      const obj: Record<string, unknown> = {};
      let keys = 0;
      ws();
      if (text.charCodeAt(i) === 0x7d) {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 0x22) refuse();
        const key = string();
        if (FORBIDDEN_KEYS.has(key) || Object.prototype.hasOwnProperty.call(obj, key)) refuse();
        if (++keys > counts.maxKeys || ++nodes > counts.maxNodes) refuse();
        ws();
        if (text.charCodeAt(i) !== 0x3a) refuse();
        i++;
        obj[key] = value(depth + 1);
        ws();
        const d = text.charCodeAt(i++);
        if (d === 0x7d) return obj;
        if (d !== 0x2c) refuse();
      }
    }
    if (c === 0x5b) {
      if (depth >= maxDepth) refuse();
      i++;
      const arr: unknown[] = [];
      ws();
      if (text.charCodeAt(i) === 0x5d) {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        const d = text.charCodeAt(i++);
        if (d === 0x5d) return arr;
        if (d !== 0x2c) refuse();
      }
    }
    if (c === 0x22) return string();
    if (c === 0x74) return literal('true', true);
    if (c === 0x66) return literal('false', false);
    if (c === 0x6e) return literal('null', null);
    return number();
  };

  try {
    const data = value(0);
    ws();
    if (i !== n) return undefined;
    return { data };
  } catch (err) {
    if (err instanceof Refused || err instanceof RangeError) return undefined;
    throw err;
  }
}
