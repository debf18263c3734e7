import { parseDocumentBytes, type ParsedDocument } from '../manifest/index.js';

export interface JsonProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * Parses untrusted JSON with the manifest parser's guards (size, depth, duplicate keys,
 * prototype keys, numbers JSON cannot carry exactly). Unlike a manifest, a payload may be any
 * JSON value (a click thesis is a string). `problems` is empty when `data` holds the value.
 */
export function parseJsonDocument(bytes: Uint8Array): { doc: ParsedDocument; data?: unknown; problems: JsonProblem[] } {
  const doc = parseDocumentBytes(bytes, 'json', 'document');
  const errors = doc.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return { doc, data: doc.data, problems: [] };
  // Every guard ran before the top-level mapping check; the text is JSON that JSON.parse accepted.
  if (errors.length === 1 && errors[0]?.code === 'MANIFEST_NOT_MAPPING' && doc.text.trim() !== '') {
    return { doc, data: JSON.parse(doc.text) as unknown, problems: [] };
  }
  // The guards speak of manifests; here the document is a contract or a payload.
  const problems = errors.map((d) => ({ message: d.message.replace(/\bmanifest\b/g, 'document'), ...(d.line !== undefined ? { line: d.line, column: d.column ?? 1 } : {}) }));
  return { doc, problems };
}
