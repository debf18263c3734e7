/**
 * The audit log: one JSON record per `skillctl run`, allowed or denied, successful or not.
 * A record holds identities, digests, decisions and metadata, never secret values or raw
 * inputs and outputs. `receipt_hash` is the sha256 of the record's RFC 8785 form without it,
 * so any later edit to a line shows. Each record is one write(2) of one line to a file opened
 * with O_APPEND, so concurrent runs never interleave their lines.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize, isSha256Digest, jcsDigest, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import type { RunStatus } from './attempt.js';
import { makeDirs } from '../fs/make-dirs.js';

export const AUDIT_VERSION = 'skillctl.audit.v1';
/** Where the log goes unless --audit says otherwise, relative to the project root. */
export const DEFAULT_AUDIT_PATH = '.skillctl/audit.jsonl';

export interface AuditDenial {
  readonly scope: string;
  /** The manifest's value for a refused required permission; absent for an operation at run time (it may come from the input). */
  readonly value?: string;
  readonly code: string;
  readonly reason: string;
}

export interface AuditRecord {
  readonly audit_version: typeof AUDIT_VERSION;
  /** RFC 3339 UTC; host-observed, not an attestation. */
  readonly started_at: string;
  readonly finished_at: string;
  readonly skillctl_version: string;
  readonly request: {
    readonly target: string;
    readonly origin: 'path' | 'lock' | 'default' | null;
    readonly skill_id: string | null;
    readonly skill_version: string | null;
    readonly manifest_digest: string | null;
    readonly content_digest: string | null;
    readonly entrypoint_id: string | null;
    readonly runtime: string | null;
    /** sha256 of the RFC 8785 form of the input; null when the input was not JSON. */
    readonly input_digest: string | null;
  };
  readonly policy: {
    /** The policy file in force, or `default`. */
    readonly source: string;
    readonly policy_digest: string | null;
    /** `not_evaluated` when the run stopped before the policy was asked (skill not found, invalid input). */
    readonly decision: 'allow' | 'deny' | 'not_evaluated';
    readonly reason: string;
    readonly denials: readonly AuditDenial[];
    readonly capabilities: {
      readonly requested: readonly string[];
      readonly required: readonly string[];
      readonly granted: readonly string[];
      /** Grant entries a built-in skill used; null for process runtimes (not observable). */
      readonly used: readonly string[] | null;
    };
  };
  readonly result: {
    readonly status: RunStatus;
    readonly exit_code: number;
    readonly duration_ms: number;
    readonly attempts: number;
    readonly sandbox: 'bwrap' | 'none' | 'in-process' | 'container' | null;
    readonly runtime_version: string | null;
    /** sha256 of the RFC 8785 form of the accepted output; null when none was accepted. */
    readonly output_digest: string | null;
    readonly truncated: { readonly stdout: boolean; readonly stderr: boolean };
    /** The error codes of the run, sorted and distinct. */
    readonly codes: readonly string[];
  };
}

export type SealedAuditRecord = AuditRecord & { readonly receipt_hash: Sha256Digest };

/** Adds `receipt_hash`: sha256 of the JCS form of the record without it. */
export function sealRecord(record: AuditRecord): SealedAuditRecord {
  return { ...record, receipt_hash: jcsDigest(record) };
}

/** The line written for a record: its JCS form (sorted keys, no spaces) and a newline. */
export function auditLine(record: SealedAuditRecord): string {
  return canonicalize(record) + '\n';
}

export interface AuditLog {
  readonly path: string;
  append(record: SealedAuditRecord): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (creating it and its directory if needed) the log for appending. Called before a run
 * starts, so an unwritable log stops the run before anything executes.
 */
export async function openAuditLog(path: string): Promise<AuditLog> {
  let fh: FileHandle;
  try {
    await makeDirs(dirname(path));
    fh = await open(path, 'a', 0o600);
  } catch (err) {
    throw new SkillctlError('AUDIT_UNWRITABLE', `cannot open the audit log ${path}: ${errnoCode(err) ?? String(err)}`, {
      cause: err,
      hint: 'choose another file with --audit FILE, or --no-audit',
    });
  }
  return {
    path,
    async append(record) {
      const bytes = Buffer.from(auditLine(record), 'utf8');
      // One write of the whole line: O_APPEND makes its placement atomic among writers.
      const { bytesWritten } = await fh.write(bytes, 0, bytes.length);
      if (bytesWritten !== bytes.length) {
        throw new SkillctlError('AUDIT_UNWRITABLE', `short write to the audit log ${path} (${bytesWritten} of ${bytes.length} bytes)`);
      }
    },
    close: () => fh.close(),
  };
}

export interface AuditVerification {
  /** Non-empty lines read. */
  readonly records: number;
  /** 1-based numbers of lines that are malformed or tampered. */
  readonly bad_lines: readonly number[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Checks every line's receipt_hash. A blank last line (the final newline) is not a record. */
export function verifyAuditLog(text: string, file: string): AuditVerification {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const diagnostics: Diagnostic[] = [];
  const bad: number[] = [];
  let records = 0;
  lines.forEach((line, i) => {
    const n = i + 1;
    records++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !isSha256Digest((value as { receipt_hash?: unknown }).receipt_hash)) {
      bad.push(n);
      diagnostics.push(diag('AUDIT_LINE_MALFORMED', `line ${n} is not a JSON record with a receipt_hash`, { file, line: n, column: 1 }));
      return;
    }
    const { receipt_hash: claimed, ...rest } = value as { receipt_hash: string };
    let actual: string;
    try {
      actual = jcsDigest(rest);
    } catch {
      actual = '';
    }
    if (actual !== claimed) {
      bad.push(n);
      diagnostics.push(diag('AUDIT_RECORD_TAMPERED', `line ${n} does not match its receipt_hash`, { file, line: n, column: 1, hint: 'the record was changed after it was written' }));
    }
  });
  return { records, bad_lines: bad, diagnostics };
}
