/**
 * Verifying an audit log, line by line: each record must be canonical JSON (RFC 8785, as written:
 * a duplicated key or other re-serialised form is an edit), match its receipt_hash, and name the
 * receipt of the line before it. A deleted, reordered or inserted record breaks the chain at the
 * line after it. What the file alone cannot show, a truncated tail, shows against a head kept
 * elsewhere (`run --json` prints it). Records written before the log was chained (v1) verify
 * with a warning; a run with a `start` record and no `end` is named.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize, isSha256Digest, jcsDigest, type Sha256Digest } from '../digest/index.js';
import { AUDIT_GENESIS, AUDIT_VERSION, AUDIT_VERSION_V1 } from './audit.js';
import { eachLine, eachStreamedLine, MAX_AUDIT_LINE_BYTES, type LineVisitor } from './audit-lines.js';
import { lineHash } from './audit-log.js';
import { wasmReceiptProblem } from './audit-receipt.js';

export interface AuditVerification {
  /** Lines read (a torn last line included). */
  readonly records: number;
  /** 1-based numbers of lines that are malformed, altered, or out of the chain. */
  readonly bad_lines: readonly number[];
  /** The receipt_hash of the last record, to keep for `--head`. */
  readonly head?: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
}

export interface VerifyOptions {
  /** The receipt_hash the log's last record must have (kept elsewhere after a run). */
  readonly head?: string;
}

type Parsed = { readonly kind: 'record'; readonly value: Record<string, unknown> } | { readonly kind: 'malformed' } | { readonly kind: 'not-canonical' };

function parse(line: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'malformed' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !isSha256Digest((value as { receipt_hash?: unknown }).receipt_hash)) return { kind: 'malformed' };
  let canonical: string;
  try {
    canonical = canonicalize(value);
  } catch {
    return { kind: 'not-canonical' };
  }
  return canonical === line ? { kind: 'record', value: value as Record<string, unknown> } : { kind: 'not-canonical' };
}

/**
 * The most bad lines one verification names; past them it stops (AUDIT_VERIFY_STOPPED), and so
 * the most unfinished runs it names one by one. A hostile log (a cloned repository's
 * `.skillctl/audit.jsonl`) of millions of bad lines had a finding each: `audit verify` ran for
 * minutes on 10 MB and ran out of memory on more.
 */
export const MAX_BAD_LINES = 100;
export const MAX_UNFINISHED_NAMED = 100;

/** Verifies a log already in memory. */
export function verifyAuditLog(text: string, file: string, opts: VerifyOptions = {}): AuditVerification {
  const v = verifier(file, opts);
  return v.finish(eachLine(text, v.visit));
}

/** Verifies a log as its bytes arrive (a file's read stream, stdin), whatever its size. */
export async function verifyAuditStream(chunks: AsyncIterable<Buffer | string>, file: string, opts: VerifyOptions = {}): Promise<AuditVerification> {
  const v = verifier(file, opts);
  return v.finish(await eachStreamedLine(chunks, v.visit));
}

/**
 * Unfinished runs held by id at most: a hostile log of start records alone would otherwise hold
 * one entry each (a gigabyte of them, millions). Past it, starts are only counted.
 */
const MAX_OPEN_RUNS = 100_000;

function verifier(file: string, opts: VerifyOptions): { visit: LineVisitor; finish(records: number): AuditVerification } {
  const diagnostics: Diagnostic[] = [];
  const bad: number[] = [];
  const at = (n: number): { file: string; line: number; column: number } => ({ file, line: n, column: 1 });
  // null: the line before was too long to hold, so what it hashes to is unknown.
  let prev: Sha256Digest | undefined | null;
  let unchained = 0;
  let stopped = false;
  const open = new Map<string, number>();
  let untracked = 0;
  const markBad = (n: number): boolean => {
    if (bad.length < MAX_BAD_LINES) {
      bad.push(n);
      return true;
    }
    stopped = true;
    diagnostics.push(diag('AUDIT_VERIFY_STOPPED', `more than ${MAX_BAD_LINES} lines are bad: verification stopped at line ${n}, and the lines after it are not checked`, { ...at(n), hint: 'this is not a log skillctl wrote; restore it from a copy' }));
    return false;
  };
  const visit: LineVisitor = (line, n, torn) => {
    if (line === null) {
      if (!markBad(n)) return false;
      diagnostics.push(diag('AUDIT_LINE_MALFORMED', `line ${n} is longer than ${MAX_AUDIT_LINE_BYTES} bytes: no record skillctl writes is`, at(n)));
      prev = null;
      return true;
    }
    if (torn) {
      diagnostics.push(diag('AUDIT_LINE_TORN', `line ${n} is incomplete: a writer stopped in the middle of it`, { ...at(n), hint: 'the next run cuts it off; its start record shows which run it was' }));
      return true;
    }
    const parsed = parse(line);
    const hash = lineHash(line);
    if (parsed.kind !== 'record') {
      if (!markBad(n)) return false;
      if (parsed.kind === 'malformed') diagnostics.push(diag('AUDIT_LINE_MALFORMED', `line ${n} is not a JSON record with a receipt_hash`, at(n)));
      else diagnostics.push(diag('AUDIT_RECORD_TAMPERED', `line ${n} is not in the canonical form it was written in (a duplicated key, reordered keys or spacing)`, { ...at(n), hint: 'the record was changed after it was written' }));
      prev = hash;
      return true;
    }
    const { receipt_hash: claimed, ...rest } = parsed.value as { receipt_hash: string };
    const found: Diagnostic[] = [];
    if (jcsDigest(rest) !== claimed) {
      found.push(diag('AUDIT_RECORD_TAMPERED', `line ${n} does not match its receipt_hash`, { ...at(n), hint: 'the record was changed after it was written' }));
    } else if (parsed.value.audit_version === AUDIT_VERSION_V1 || !('prev_hash' in parsed.value)) {
      unchained++;
    } else if (prev === null || parsed.value.prev_hash !== (prev ?? AUDIT_GENESIS)) {
      found.push(
        diag('AUDIT_CHAIN_BROKEN', `line ${n} does not follow the record before it: a record was deleted, reordered or inserted before line ${n}`, {
          ...at(n),
          hint: 'compare with a copy of the log, or with the head printed by skillctl run --json',
        }),
      );
    }
    const receipt = wasmReceiptProblem(parsed.value);
    if (receipt !== undefined) found.push(diag('AUDIT_RECEIPT_INCONSISTENT', `line ${n}: ${receipt}`, { ...at(n), hint: 'the record was rewritten and sealed again, or written by a faulty writer' }));
    if (found.length > 0) {
      if (!markBad(n)) return false;
      for (const d of found) diagnostics.push(d);
    }
    if (parsed.value.audit_version === AUDIT_VERSION && typeof parsed.value.run_id === 'string') {
      if (parsed.value.event !== 'start') open.delete(parsed.value.run_id);
      else if (open.size < MAX_OPEN_RUNS || open.has(parsed.value.run_id)) open.set(parsed.value.run_id, n);
      else untracked++;
    }
    prev = hash;
    return true;
  };
  const finish = (records: number): AuditVerification => {
    if (unchained > 0) {
      diagnostics.push(diag('AUDIT_UNCHAINED', `${unchained} record${unchained === 1 ? ' was' : 's were'} written before the log was chained: a deleted or reordered one among them cannot be seen`, { file }));
    }
    let named = 0;
    for (const [runId, n] of open) {
      if (named++ === MAX_UNFINISHED_NAMED) {
        const more = open.size - MAX_UNFINISHED_NAMED + untracked;
        diagnostics.push(diag('AUDIT_RUN_UNFINISHED', `${more} more run${more === 1 ? ' has' : 's have'} a start record and no end record, the first at line ${n}`, at(n)));
        break;
      }
      diagnostics.push(diag('AUDIT_RUN_UNFINISHED', `the run ${runId} started at line ${n} and has no end record: it was killed, or is still running`, at(n)));
    }
    // A verification that stopped, or lost the chain at its last line, does not know where the log ends.
    if (stopped || prev === null) return { records, bad_lines: bad, diagnostics };
    if (opts.head !== undefined && prev !== opts.head) {
      diagnostics.push(
        diag('AUDIT_HEAD_MISMATCH', `the log ends at ${prev ?? 'no record'}, not at the head ${opts.head}: records after it were removed, or the head is of another log`, { file }),
      );
    }
    return { records, bad_lines: bad, ...(prev !== undefined ? { head: prev } : {}), diagnostics };
  };
  return { visit, finish };
}
