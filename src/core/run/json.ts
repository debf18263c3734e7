/**
 * JSON a run reads: its input, a process's output, a lock file, all untrusted. A clean document
 * (the usual case) is read without the YAML parser (readCleanJson); any other goes to the full
 * guarded parser, loaded then, whose diagnostics say what is wrong with it and where. Both apply
 * the same guards (size, UTF-8, depth, duplicate and prototype keys, exact numbers).
 */
import type { Diagnostic } from '../diagnostics.js';
import { canonicalJson } from '../digest/index.js';
// Not through manifest/index.js: that holds the YAML parser and the validators.
import { readCleanJson } from '../manifest/guards.js';
import { loadFull } from './full-load.js';

export type JsonValueRead = { readonly data: unknown } | { readonly errors: readonly Diagnostic[] };

/** How the document parser words a syntax error; its guards (a duplicate key, too deep) word theirs otherwise. */
const NOT_JSON = 'invalid JSON: ';

/**
 * A reader's error said of a named document (`the input`, `the skill's output`): `is not JSON: …`
 * for a syntax error, `is refused: …` for a guard. The reader's codes (MANIFEST_PARSE_ERROR…) are
 * about manifests; a run reports the finding under a code of its own, at the reader's position.
 */
export function refusalOf(d: Diagnostic | undefined): string {
  if (d === undefined) return 'is not JSON: it is not one JSON value';
  return d.message.startsWith(NOT_JSON) ? `is not JSON: ${d.message.slice(NOT_JSON.length)}` : `is refused: ${d.message}`;
}

/** The error nearest the start of the document: what a reader fixes first. */
export function firstError(errors: readonly Diagnostic[]): Diagnostic | undefined {
  const at = (d: Diagnostic): number => (d.line ?? Number.MAX_SAFE_INTEGER) * 1e6 + (d.column ?? 0);
  return errors.reduce<Diagnostic | undefined>((best, d) => (best === undefined || at(d) < at(best) ? d : best), undefined);
}

/**
 * Any JSON value (a payload may be a string); `errors` when the document is refused. A value with
 * no canonical form (a string holding an unpaired surrogate, `"\ud800"`: JSON text, not I-JSON)
 * is refused too: the run's record holds its digest, and a value that cannot be digested made
 * the append of the record throw, so a skill's output (or a tool call's arguments) kept its run
 * out of the audit log.
 */
export async function readJsonValue(bytes: Uint8Array): Promise<JsonValueRead> {
  const clean = readCleanJson(bytes);
  let data: unknown;
  if (clean !== undefined) data = clean.value;
  else {
    const parsed = (await loadFull()).parseJsonDocument(bytes);
    if (!('data' in parsed) || parsed.problems.length > 0) return { errors: parsed.doc.diagnostics.filter((d) => d.severity === 'error') };
    data = parsed.data;
  }
  const canonical = canonicalJson(data);
  return canonical.ok ? { data } : { errors: canonical.diagnostics };
}

/** A JSON document that must be an object (a lock file): `data` only when it is one, without errors. */
export async function readJsonObject(bytes: Uint8Array): Promise<{ readonly data?: unknown; readonly diagnostics: readonly Diagnostic[] }> {
  const clean = readCleanJson(bytes);
  if (clean !== undefined && clean.value !== null && typeof clean.value === 'object' && !Array.isArray(clean.value)) return { data: clean.value, diagnostics: [] };
  const doc = (await loadFull()).parseDocumentBytes(bytes, 'json', 'lock file');
  return { data: doc.data, diagnostics: doc.diagnostics };
}
