/**
 * JSON a run reads: its input, a process's output, a lock file, all untrusted. A clean document
 * (the usual case) is read without the YAML parser (readCleanJson); any other goes to the full
 * guarded parser, loaded then, whose diagnostics say what is wrong with it and where. Both apply
 * the same guards (size, UTF-8, depth, duplicate and prototype keys, exact numbers).
 */
import type { Diagnostic } from '../diagnostics.js';
// Not through manifest/index.js: that holds the YAML parser and the validators.
import { readCleanJson } from '../manifest/guards.js';
import { loadFull } from './full-load.js';

export type JsonValueRead = { readonly data: unknown } | { readonly errors: readonly Diagnostic[] };

/** Any JSON value (a payload may be a string); `errors` when the document is refused. */
export async function readJsonValue(bytes: Uint8Array): Promise<JsonValueRead> {
  const clean = readCleanJson(bytes);
  if (clean !== undefined) return { data: clean.value };
  const parsed = (await loadFull()).parseJsonDocument(bytes);
  if ('data' in parsed && parsed.problems.length === 0) return { data: parsed.data };
  return { errors: parsed.doc.diagnostics.filter((d) => d.severity === 'error') };
}

/** A JSON document that must be an object (a lock file): `data` only when it is one, without errors. */
export async function readJsonObject(bytes: Uint8Array): Promise<{ readonly data?: unknown; readonly diagnostics: readonly Diagnostic[] }> {
  const clean = readCleanJson(bytes);
  if (clean !== undefined && clean.value !== null && typeof clean.value === 'object' && !Array.isArray(clean.value)) return { data: clean.value, diagnostics: [] };
  const doc = (await loadFull()).parseDocumentBytes(bytes, 'json', 'lock file');
  return { data: doc.data, diagnostics: doc.diagnostics };
}
