/**
 * The bounds every untrusted document is held to (parse.ts applies them with source positions),
 * and a reader that applies them to JSON without the YAML parser. `skillctl run` reads JSON on
 * every invocation (its input, a process's output, a lock file); the YAML parser that gives
 * parse.ts its positions costs more to load than the rest of a built-in run. So a run reads JSON
 * with `readCleanJson` first, and only a document it does not accept goes to parseDocumentBytes,
 * which then reports what is wrong with it, where.
 */
import { firstInvalidUtf8 } from './utf8.js';

export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
export const MANIFEST_MAX_DEPTH = 64;
export const MANIFEST_MAX_ALIASES = 100;
/** Keys that can alter object prototypes in consumers. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** Longer keys are left to the full parser, which follows YAML's limit on implicit keys. */
const MAX_KEY_CHARS = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when every key of every object in the JSON `text` is distinct and allowed, and no
 * nesting is deeper than the bound. `text` must already be valid JSON (JSON.parse accepted it),
 * so the scan only has to tell strings, keys and brackets apart.
 */
function keysAndDepthClean(text: string): boolean {
  // One frame per open bracket: the keys seen so far for an object, null for an array.
  const frames: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      let escaped = false;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (d === BACKSLASH) {
          escaped = true;
          end++;
        } else if (d === QUOTE) {
          break;
        }
      }
      if (expectKey) {
        if (end - i > MAX_KEY_CHARS) return false;
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        const keys = frames[frames.length - 1] as Set<string>;
        if (FORBIDDEN_KEYS.has(key) || keys.has(key)) return false;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      frames.push(c === 0x7b ? new Set() : null);
      if (frames.length > MANIFEST_MAX_DEPTH) return false;
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = frames[frames.length - 1] instanceof Set;
    }
  }
  return true;
}

/** True when every number in `value` is finite and, if whole, exactly representable. */
function numbersExact(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))) return false;
    } else if (v !== null && typeof v === 'object') {
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return true;
}

/**
 * The value of a JSON document that passes every guard of parseDocumentBytes (size, UTF-8, no
 * NUL, depth, no duplicate or prototype keys, exact numbers), with nothing to report; undefined
 * for any other document, which the caller gives to parseDocumentBytes for its diagnostics. Any
 * JSON value is accepted at the top level.
 */
export function readCleanJson(bytes: Uint8Array): { readonly value: unknown } | undefined {
  if (bytes.length > MANIFEST_MAX_BYTES) return undefined;
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  if (body.includes(0) || firstInvalidUtf8(body) !== -1) return undefined;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keysAndDepthClean(text) && numbersExact(value) ? { value } : undefined;
}
