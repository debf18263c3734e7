/**
 * The bounds every untrusted document is held to (parse.ts applies them with source positions),
 * and a reader that applies them to JSON without the YAML parser. `skillctl run` reads JSON on
 * every invocation (its input, a process's output, a lock file); the YAML parser that gives
 * parse.ts its positions costs more to load than the rest of a built-in run. So a run reads JSON
 * with `readCleanJson` first, and only a document it does not accept goes to parseDocumentBytes,
 * which then reports what is wrong with it, where.
 */
import { parseJsonStrict } from './json-strict.js';
import { firstInvalidUtf8 } from './utf8.js';

export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
export const MANIFEST_MAX_DEPTH = 64;
export const MANIFEST_MAX_ALIASES = 100;
/** Keys that can alter object prototypes in consumers. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
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
  const parsed = parseJsonStrict(text, MANIFEST_MAX_DEPTH);
  return parsed === undefined ? undefined : { value: parsed.data };
}
