/**
 * The bounds every untrusted document is held to (parse.ts applies them with source positions),
 * and a reader that applies them to JSON without the YAML parser. `skillctl run` reads JSON on
 * every invocation (its input, a process's output, a lock file); the YAML parser that gives
 * parse.ts its positions costs more to load than the rest of a built-in run. So a run reads JSON
 * with `readCleanJson` first, and only a document it does not accept goes to parseDocumentBytes,
 * which then reports what is wrong with it, where.
 */
import { parseJsonStrict } from './json-strict.js';
import { MANIFEST_MAX_DEPTH } from './shape.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { bytePosition, firstInvalidUtf8 } from './utf8.js';

export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
export { MANIFEST_MAX_DEPTH, MANIFEST_MAX_KEYS, MANIFEST_MAX_NODES } from './shape.js';
export const MANIFEST_MAX_ALIASES = 100;
export { FORBIDDEN_KEYS } from './json-strict.js';
/**
 * The text of a document's bytes, or the one finding that refuses it: over the size bound,
 * UTF-16, invalid UTF-8 (with its position), a NUL byte. A UTF-8 byte order mark is dropped.
 * `subject` names the document in messages (`manifest`, `lock file`...).
 */
export function decodeDocument(bytes: Uint8Array, subject = 'manifest'): { text: string } | { diagnostic: Diagnostic } {
  if (bytes.length > MANIFEST_MAX_BYTES) {
    return {
      diagnostic: diag('MANIFEST_TOO_LARGE', `${subject} is ${bytes.length} bytes; the bound is ${MANIFEST_MAX_BYTES}`, {
        hint: 'move large data out of the manifest into bundle files',
      }),
    };
  }
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    return { diagnostic: diag('MANIFEST_ENCODING', `${subject} is UTF-16; it must be UTF-8`, { line: 1, column: 1, hint: 're-save the file as UTF-8' }) };
  }
  const body = bytes.subarray(start);
  const bad = firstInvalidUtf8(body);
  if (bad !== -1) {
    return {
      diagnostic: diag('MANIFEST_ENCODING', `byte ${bad + start} is not valid UTF-8`, {
        ...bytePosition(body, bad),
        hint: 're-save the file as UTF-8',
      }),
    };
  }
  if (body.includes(0)) {
    const nul = body.indexOf(0);
    return { diagnostic: diag('MANIFEST_ENCODING', `${subject} contains a NUL byte`, { ...bytePosition(body, nul) }) };
  }
  return { text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') };
}

/**
 * The value of a JSON document that passes every guard of parseDocumentBytes (size, UTF-8, no
 * NUL, depth, no duplicate or prototype keys, exact numbers), with nothing to report; undefined
 * for any other document, which the caller gives to parseDocumentBytes for its diagnostics. Any
 * JSON value is accepted at the top level.
 */
export function readCleanJson(bytes: Uint8Array): { readonly value: unknown } | undefined {
  const decoded = decodeDocument(bytes);
  if ('diagnostic' in decoded) return undefined;
  const parsed = parseJsonStrict(decoded.text, MANIFEST_MAX_DEPTH);
  return parsed === undefined ? undefined : { value: parsed.data };
}
