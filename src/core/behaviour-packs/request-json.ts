/**
 * The JSON text of a `skill` request (stdin of `skillctl skill --stdin`, an MCP tool call's raw
 * arguments). Parsed with the manifest parser's guards, so a duplicate key, a prototype key or a
 * hostile size is refused instead of being resolved one way or another.
 */
import { diag, type Result } from '../diagnostics.js';
import { jsonSyntaxProblem, parseDocumentBytes } from '../manifest/index.js';

/** Largest request accepted; a real one is under 100 bytes. */
export const PACK_REQUEST_MAX_BYTES = 64 * 1024;

/** The request value, or INVALID_INPUT. The value still has to pass `checkPackRequest`. */
export function parsePackRequest(bytes: Uint8Array): Result<unknown> {
  const fail = (message: string, extra: { line?: number; column?: number; hint?: string } = {}): Result<unknown> => ({
    ok: false,
    diagnostics: [diag('INVALID_INPUT', message, { pointer: '', hint: 'send one JSON object, e.g. {"profile": "daily", "max_chars": 2000}', ...extra })],
  });
  if (bytes.length > PACK_REQUEST_MAX_BYTES) return fail(`the request is ${bytes.length} bytes; the bound is ${PACK_REQUEST_MAX_BYTES}`);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.trim() === '') return fail('the request is empty; it must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // In skillctl's words, at a line and column: JSON.parse's message changes with Node's version.
    const p = jsonSyntaxProblem(text);
    return fail(`the request is not valid JSON: ${p?.reason ?? 'it is not one JSON value'}`, p !== undefined ? { line: p.line, column: p.column } : {});
  }
  // Not an object: checkPackRequest says so in terms of the request. An object goes through the
  // guarded parser, which sees what JSON.parse hides (duplicate keys) or must not accept.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: true, value, diagnostics: [] };
  const doc = parseDocumentBytes(bytes, 'json', 'request');
  const bad = doc.diagnostics.find((d) => d.severity === 'error');
  if (bad !== undefined) {
    return fail(`the request is refused: ${bad.message}`, { ...(bad.line !== undefined ? { line: bad.line } : {}), ...(bad.column !== undefined ? { column: bad.column } : {}) });
  }
  return { ok: true, value: doc.data, diagnostics: [] };
}
