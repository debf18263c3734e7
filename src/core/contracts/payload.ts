/** Checks a payload given as bytes (a file, stdin): JSON only (C1), then the contract. */
import { diag, type Diagnostic } from '../diagnostics.js';
import { capFindings } from '../findings.js';
import type { PayloadContext, PayloadValidator } from './compile.js';
import { parseJsonDocument } from './json-document.js';

export interface PayloadCheck {
  /** The file as named by the caller (`-` for stdin). */
  readonly file: string;
  /** True when there is no error: the payload may be accepted. */
  readonly valid: boolean;
  /** The parsed payload, when it was JSON. */
  readonly value?: unknown;
  readonly diagnostics: readonly Diagnostic[];
}

const KEYED = new Set(['PAYLOAD_FIELD_UNKNOWN', 'PAYLOAD_FIELD_RENAMED']);

/** Parses `bytes` as one JSON document and checks it; every finding carries `file`, pointer, line and column. */
export function checkPayloadBytes(bytes: Uint8Array, validator: PayloadValidator, opts: { readonly file: string } & PayloadContext): PayloadCheck {
  const { file } = opts;
  const { doc, data, problems } = parseJsonDocument(bytes);
  if (problems.length > 0) {
    const fenced = /^\s*(?:```|~~~)/.test(doc.text);
    const hint = fenced ? 'remove the markdown code fence: C1 allows JSON only' : 'C1: a payload is one JSON document and nothing else';
    return { file, valid: false, diagnostics: problems.map((p) => diag('PAYLOAD_NOT_JSON', `not one plain JSON document: ${p.message}`, { ...p, file, hint })) };
  }
  // Capped before positions are looked up: a payload can break its contract a hundred thousand times.
  const found = capFindings(validator.check(data, 'input' in opts ? { input: opts.input } : {}), file).map((d) => {
    const at = d.pointer !== undefined ? doc.locate(d.pointer, { key: KEYED.has(d.code) }) : undefined;
    return { ...d, file, ...(at !== undefined ? { line: at.line, column: at.column } : {}) };
  });
  return { file, valid: !found.some((d) => d.severity === 'error'), value: data, diagnostics: found };
}
