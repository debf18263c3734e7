/**
 * `skillctl audit diff`: which fingerprints two audit records disagree on. A record is picked
 * from a log by line number or run id (its `end` record), or is the only or last `end` record of
 * a file. Each record must still match its receipt_hash: comparing an edited record would prove
 * nothing.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalDigest, isSha256Digest } from '../digest/index.js';
import { eachLine, eachStreamedLine, type LineVisitor } from './audit-lines.js';
import { fingerprintDifferences, NO_FINGERPRINTS, type RunFingerprints } from './fingerprints.js';

/** How a record is named on the command line: a line of a log, a run id in a log, or a whole file. */
export type RecordRef = { readonly line: number } | { readonly runId: string } | { readonly last: true };

/** A run id as newRunId writes it. */
const RUN_ID = /^[0-9a-f]{16}$/;

/** `12` is a line, 16 hex digits a run id; anything else is not a reference into a log. */
export function toRecordRef(text: string): RecordRef | undefined {
  if (RUN_ID.test(text)) return { runId: text };
  if (/^[1-9][0-9]{0,8}$/.test(text)) return { line: Number(text) };
  return undefined;
}

/** One side of the comparison, as found. */
export interface PickedRecord {
  readonly file: string;
  /** 1-based line of the log. */
  readonly line: number;
  readonly run_id: string | null;
  readonly fingerprints: RunFingerprints;
}

function asObject(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function fingerprintsOf(v: Record<string, unknown>): RunFingerprints {
  const f = v.fingerprints;
  if (f === null || typeof f !== 'object') return NO_FINGERPRINTS;
  const d = f as Record<string, unknown>;
  const one = (k: keyof RunFingerprints): RunFingerprints[typeof k] => (isSha256Digest(d[k]) ? d[k] : null);
  return { args: one('args'), result: one('result'), side_effects: one('side_effects') };
}

/** The record `ref` names in `text` (a log already in memory), or why there is none. */
export function pickRecord(text: string, file: string, ref: RecordRef): PickedRecord | Diagnostic {
  const p = picker(file, ref);
  eachLine(text, p.visit);
  return p.picked();
}

/** The record `ref` names in a log read as its bytes arrive, or why there is none. */
export async function pickRecordStream(chunks: AsyncIterable<Buffer | string>, file: string, ref: RecordRef): Promise<PickedRecord | Diagnostic> {
  const p = picker(file, ref);
  await eachStreamedLine(chunks, p.visit);
  return p.picked();
}

function picker(file: string, ref: RecordRef): { visit: LineVisitor; picked(): PickedRecord | Diagnostic } {
  // Only the last match is kept: a log of a million end records is not held as a million objects.
  let hit: { n: number; v: Record<string, unknown> } | undefined;
  const visit: LineVisitor = (l, n) => {
    if (l === '') return true;
    if ('line' in ref) {
      if (ref.line !== n) return true;
      hit = { n, v: (l !== null ? asObject(l) : undefined) ?? {} };
      return false;
    }
    const v = l !== null ? asObject(l) : undefined;
    if (v !== undefined && v.event !== 'start' && ('runId' in ref ? v.run_id === ref.runId : true)) hit = { n, v };
    return true;
  };
  const picked = (): PickedRecord | Diagnostic => {
    const what = 'line' in ref ? `line ${ref.line}` : 'runId' in ref ? `an end record of run ${ref.runId}` : 'an end record';
    if (hit === undefined) return diag('AUDIT_RECORD_NOT_FOUND', `${file} has no ${what}`, { file, hint: 'name a record by its line number or run id (skillctl run --json prints the run id in its audit record)' });
    const { receipt_hash: claimed, ...rest } = hit.v;
    if (!isSha256Digest(claimed)) return diag('AUDIT_LINE_MALFORMED', `line ${hit.n} is not a JSON record with a receipt_hash`, { file, line: hit.n, column: 1 });
    // A string with no canonical form (an unpaired surrogate) is a record skillctl never wrote.
    const digest = canonicalDigest(rest);
    if (!digest.ok || digest.value !== claimed) return diag('AUDIT_RECORD_TAMPERED', `line ${hit.n} does not match its receipt_hash`, { file, line: hit.n, column: 1, hint: 'the record was changed after it was written' });
    return { file, line: hit.n, run_id: typeof hit.v.run_id === 'string' ? hit.v.run_id : null, fingerprints: fingerprintsOf(hit.v) };
  };
  return { visit, picked };
}

export interface AuditDiff {
  readonly records: readonly PickedRecord[];
  /** The fingerprints that differ, in the order args, result, side_effects. */
  readonly differ: readonly (keyof RunFingerprints)[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Compares two picked records: AUDIT_FINGERPRINTS_DIFFER for the fingerprints they disagree on
 * (exit 1), nothing when they agree; a side that could not be picked is its finding.
 */
export function diffAuditRecords(a: PickedRecord | Diagnostic, b: PickedRecord | Diagnostic): AuditDiff {
  const problems = [a, b].filter((x): x is Diagnostic => 'code' in x);
  if (problems.length > 0) return { records: [a, b].filter((x): x is PickedRecord => !('code' in x)), differ: [], diagnostics: problems };
  const [x, y] = [a as PickedRecord, b as PickedRecord];
  const differ = fingerprintDifferences(x.fingerprints, y.fingerprints);
  const diagnostics =
    differ.length === 0
      ? []
      : [diag('AUDIT_FINGERPRINTS_DIFFER', `the records at ${x.file}:${x.line} and ${y.file}:${y.line} differ in their ${differ.join(', ')} fingerprint${differ.length > 1 ? 's' : ''}`)];
  return { records: [x, y], differ, diagnostics };
}
