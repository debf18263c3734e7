/**
 * Turns manifest bytes into data plus source positions, refusing hostile documents before they
 * can cost memory, stack or correctness: oversized files, invalid UTF-8, alias bombs, duplicate
 * keys, prototype keys, deep nesting, and values JSON cannot represent (the digest is computed
 * over JSON, so the data must round-trip exactly).
 *
 * A clean document is read by a quick reader (json-strict.ts, yaml-fast.ts); the full parser
 * (yaml-document.ts) reads any other, and builds positions for a clean one only when a finding
 * needs placing.
 */
import { decodeDocument, MANIFEST_MAX_ALIASES, MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH } from './guards.js';
import { refused, type DocumentFormat, type ParsedDocument } from './document.js';
import { parseJsonStrict } from './json-strict.js';
import { parseText } from './yaml-document.js';
import { readPlainYaml } from './yaml-fast.js';

export { MANIFEST_MAX_ALIASES, MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH };
export type { DocumentFormat, ParsedDocument, Position } from './document.js';

/**
 * Parses manifest bytes as YAML or JSON. Never throws for bad input. `subject` names the document
 * in messages, for the other documents read with the same guards (`lock file`, `policy`...).
 */
export function parseDocumentBytes(bytes: Uint8Array, format: DocumentFormat, subject = 'manifest'): ParsedDocument {
  const decoded = decodeDocument(bytes, subject);
  if ('diagnostic' in decoded) return refused(format, [decoded.diagnostic]);
  const { text } = decoded;
  const data = format === 'json' ? jsonMapping(text) : readPlainYaml(text);
  if (data === undefined) return parseText(text, format, subject);
  // Positions are only needed to place a finding; build them on first use.
  let full: ParsedDocument | undefined;
  const slow = (): ParsedDocument => (full ??= parseText(text, format, subject));
  return {
    format,
    text,
    data,
    diagnostics: [],
    locate: (pointer, opts) => slow().locate(pointer, opts),
    scalarRange: (pointer) => slow().scalarRange(pointer),
  };
}

function jsonMapping(text: string): Record<string, unknown> | undefined {
  const fast = parseJsonStrict(text, MANIFEST_MAX_DEPTH);
  const data = fast?.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}
