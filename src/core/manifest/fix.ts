/**
 * `validate --fix`: rewrites manifest_digest and content_digest in place. Only the bytes of the
 * two values change (or one line is added), so comments, key order, quoting and layout stay as
 * the author wrote them.
 */
import { computeManifestDigest, manifestDigestOf, type ManifestValidation } from './validate.js';
import { parseDocumentBytes, type ParsedDocument } from './parse.js';

export interface DigestFix {
  /** The new text, or undefined when nothing needed to change or nothing could be fixed. */
  readonly text?: string;
  readonly changed: readonly ('content_digest' | 'manifest_digest')[];
  /** Why a fix was not possible (the document does not parse, or the bundle is unreadable). */
  readonly reason?: string;
}

function quoteLike(doc: ParsedDocument, start: number, value: string): string {
  const c = doc.text[start];
  if (c === '"') return JSON.stringify(value);
  if (c === "'") return `'${value}'`;
  return doc.format === 'json' ? JSON.stringify(value) : value;
}

function setField(doc: ParsedDocument, field: string, value: string, after: string | undefined): string {
  const range = doc.scalarRange(`/${field}`);
  if (range !== undefined) {
    return doc.text.slice(0, range[0]) + quoteLike(doc, range[0], value) + doc.text.slice(range[1]);
  }
  if (doc.format === 'json') {
    // JSON: a new first member, indented like the member that follows it.
    const brace = doc.text.indexOf('{');
    const rest = doc.text.slice(brace + 1);
    const pair = `${JSON.stringify(field)}: ${JSON.stringify(value)}`;
    if (rest.trimStart().startsWith('}')) return doc.text.slice(0, brace + 1) + pair + rest;
    const ws = /^\s*/.exec(rest)?.[0] ?? '';
    return doc.text.slice(0, brace + 1) + ws + pair + ',' + rest;
  }
  // YAML: a new top-level line, after the line holding `after` when that key exists.
  const anchor = after !== undefined ? doc.scalarRange(`/${after}`) : undefined;
  if (anchor !== undefined) {
    const eol = doc.text.indexOf('\n', anchor[1]);
    const at = eol === -1 ? doc.text.length : eol + 1;
    const prefix = eol === -1 ? '\n' : '';
    return doc.text.slice(0, at) + `${prefix}${field}: ${value}\n` + doc.text.slice(at);
  }
  const sep = doc.text === '' || doc.text.endsWith('\n') ? '' : '\n';
  return `${doc.text}${sep}${field}: ${value}\n`;
}

/** Computes the text with correct digests for a validated manifest. */
export function fixDigests(result: ManifestValidation): DigestFix {
  let doc = result.document;
  if (doc.data === undefined) return { changed: [], reason: 'the manifest does not parse' };
  const changed: ('content_digest' | 'manifest_digest')[] = [];
  const content = result.digests.content;
  if (result.bundle !== undefined) {
    if (content.computed === undefined) return { changed: [], reason: "the bundle's files could not all be read" };
    if (content.declared !== content.computed) {
      doc = parseDocumentBytes(Buffer.from(setField(doc, 'content_digest', content.computed, 'manifest_digest')), doc.format);
      changed.push('content_digest');
    }
  }
  if (doc.data === undefined) return { changed: [], reason: 'the manifest could not be rewritten safely' };
  const computed = computeManifestDigest(doc.data as Record<string, unknown>);
  const digest = computed.value;
  if (digest === undefined) return { changed: [], reason: computed.diagnostics[0]?.message ?? 'the manifest has no canonical form' };
  if ((doc.data as Record<string, unknown>).manifest_digest !== digest) {
    doc = parseDocumentBytes(Buffer.from(setField(doc, 'manifest_digest', digest, 'description')), doc.format);
    changed.push('manifest_digest');
  }
  if (changed.length === 0) return { changed };
  // Re-check what we produced: a fix that does not verify is not written.
  const data = doc.data as Record<string, unknown> | undefined;
  if (data === undefined || manifestDigestOf(data) !== data.manifest_digest) {
    return { changed: [], reason: 'the rewritten manifest did not verify; it was not written' };
  }
  return { text: doc.text, changed };
}
