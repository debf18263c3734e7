import { parseDocumentBytes, type ParsedDocument } from '../manifest/index.js';

export interface JsonProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * Parses untrusted JSON with the manifest parser's guards (size, depth, duplicate keys,
 * prototype keys, numbers JSON cannot carry exactly). `problems` is empty when `doc.data` holds it.
 */
export function parseJsonDocument(bytes: Uint8Array): { doc: ParsedDocument; problems: JsonProblem[] } {
  const doc = parseDocumentBytes(bytes, 'json');
  const problems = doc.diagnostics
    .filter((d) => d.severity === 'error')
    // The guards speak of manifests; here the document is a contract or a payload.
    .map((d) => ({ message: d.message.replace(/\bmanifest\b/g, 'document'), ...(d.line !== undefined ? { line: d.line, column: d.column ?? 1 } : {}) }));
  if (problems.length === 0 && doc.data === undefined) problems.push({ message: 'the document is empty' });
  return { doc, problems };
}
