/**
 * The audit record: one JSON line per event of a run, allowed or denied, successful or not. A
 * run writes a `start` record before anything of the skill runs and an `end` record with its
 * outcome (a run refused earlier writes only the `end`). A record holds identities, digests,
 * decisions and metadata, never secret values or raw inputs and outputs. `receipt_hash` is the
 * sha256 of the record's RFC 8785 form without it, and each record names the receipt of the one
 * before it (`prev_hash`), so an edit, a deletion, a reordering or an insertion shows.
 */
import { canonicalize, jcsDigest, type Sha256Digest } from '../digest/index.js';
import type { LoaderError } from '../manifest/index.js';
import type { RunStatus } from './attempt.js';
import type { RunFingerprints } from './fingerprints.js';

export const AUDIT_VERSION = 'skillctl.audit.v2';
/** Records written before the log was chained: they verify, with a warning. */
export const AUDIT_VERSION_V1 = 'skillctl.audit.v1';
/** Where the log goes unless --audit says otherwise, relative to the project root. */
export const DEFAULT_AUDIT_PATH = '.skillctl/audit.jsonl';
/** The `prev_hash` of the first record of a log. */
export const AUDIT_GENESIS: Sha256Digest = `sha256:${'0'.repeat(64)}`;

export interface AuditDenial {
  readonly scope: string;
  /** The manifest's value for a refused required permission; absent for an operation at run time (it may come from the input). */
  readonly value?: string;
  readonly code: string;
  readonly reason: string;
}

/** An operation the policy refused that the skill did without (search.ripgrep without rg). */
export interface AuditFallback {
  readonly scope: string;
  readonly code: string;
  readonly reason: string;
  /** What the skill did instead. */
  readonly instead: string;
}

/** Where a run's memory and process caps held: the whole run (a cgroup), each process, the built-in's thread. */
export type CapScope = 'run' | 'process' | 'thread' | 'none';

export interface AuditResult {
  readonly status: RunStatus;
  readonly exit_code: number;
  readonly duration_ms: number;
  readonly attempts: number;
  readonly sandbox: 'bwrap' | 'none' | 'in-process' | 'container' | 'wasm' | null;
  readonly runtime_version: string | null;
  /** sha256 of the RFC 8785 form of the accepted output; null when none was accepted. */
  readonly output_digest: string | null;
  readonly truncated: { readonly stdout: boolean; readonly stderr: boolean };
  /** The error codes of the run, sorted and distinct. */
  readonly codes: readonly string[];
  /** Where max_memory and the process count held; null when nothing executed. */
  readonly caps: { readonly memory: CapScope; readonly processes: CapScope } | null;
  /**
   * Only when the bundle failed validation (`bundle_invalid`): the manifest loader's error
   * (`skill.loader_error.v1`), naming the finding the bundle was refused for. Absent otherwise,
   * so records written before it existed still conform.
   */
  readonly loader_error?: LoaderError;
  /** Only for a wasm run: provenact's receipt fields (docs/formats/wasm.md). Absent otherwise. */
  readonly wasm?: WasmReceipt;
}

/** What a wasm run's record adds: the receipt provenact writes, beside the record's own digests. */
export interface WasmReceipt {
  /** sha256 of the module file as the bundle holds it (provenact's `artifact`). */
  readonly artifact_digest: string;
  /** sha256 of the raw output bytes (provenact's `outputs_hash`); null when there were none. */
  readonly output_bytes_digest: string | null;
  /** The capability kinds hostcalls were allowed, sorted and distinct. */
  readonly caps_used: readonly string[];
  readonly limits: { readonly fuel: number | null; readonly memory_bytes: number; readonly timeout_ms: number; readonly max_output_bytes: number };
}

interface RecordBase {
  readonly audit_version: typeof AUDIT_VERSION;
  /** Pairs a run's `start` and `end` records. */
  readonly run_id: string;
  /** RFC 3339 UTC; host-observed, not an attestation. */
  readonly started_at: string;
  readonly finished_at: string | null;
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
    /** The first MAX_DENIALS (record.ts) distinct denials. */
    readonly denials: readonly AuditDenial[];
    /** How many more the record leaves out; absent when none (and in records written before it existed). */
    readonly denials_omitted?: number;
    /**
     * Refusals the skill did without, doing the work another way: they are not denials, and the
     * decision stays `allow`. Absent when there were none (and in records written before it existed).
     */
    readonly fallbacks?: readonly AuditFallback[];
    readonly capabilities: {
      readonly requested: readonly string[];
      readonly required: readonly string[];
      readonly granted: readonly string[];
      /** Grant entries a built-in used; null for process runtimes (not observable) and in a `start` record. */
      readonly used: readonly string[] | null;
    };
  };
  /**
   * sha256 of the RFC 8785 form of `{ <declared path>: <value or null> }` for the entrypoint's
   * args, result and side-effect fingerprint fields; null where there is nothing to fingerprint.
   */
  readonly fingerprints: RunFingerprints;
  readonly result: AuditResult | null;
}

/** Written before anything of the skill runs. */
export interface AuditStartRecord extends RecordBase {
  readonly event: 'start';
  readonly finished_at: null;
  readonly result: null;
}

/** How the run ended. */
export interface AuditEndRecord extends RecordBase {
  readonly event: 'end';
  readonly finished_at: string;
  readonly result: AuditResult;
}

export type AuditRecord = AuditStartRecord | AuditEndRecord;

/** A record as written: chained to the one before it and sealed. */
export type Sealed<R extends AuditRecord> = R & { readonly prev_hash: Sha256Digest; readonly receipt_hash: Sha256Digest };
export type SealedAuditRecord = Sealed<AuditEndRecord>;

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The longest string a record keeps whole (a path is at most 4096 bytes). */
export const MAX_RECORD_STRING = 4096;

/**
 * The record with U+FFFD for each unpaired surrogate in its strings, which have no canonical form,
 * and each string past MAX_RECORD_STRING cut there. A bundle refused as invalid names its
 * skill_id, version and contract version as written: `"x\ud800"` there made sealing throw, so the
 * refused run left no record at all, and strings of 200 KB added 1 MB to the log at each run.
 */
function wellFormed<T>(value: T): T {
  if (typeof value === 'string') {
    const cut = value.length > MAX_RECORD_STRING ? `${value.slice(0, MAX_RECORD_STRING)}…[${value.length - MAX_RECORD_STRING} more characters]` : value;
    return cut.replace(LONE_SURROGATES, '\uFFFD') as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => wellFormed(v)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)])) as T;
  return value;
}

/** Adds `prev_hash` and `receipt_hash`: sha256 of the JCS form of the record with its link, without the receipt. */
export function sealRecord<R extends AuditRecord>(record: R, prev: Sha256Digest = AUDIT_GENESIS): Sealed<R> {
  const linked = { ...wellFormed(record), prev_hash: prev };
  return { ...linked, receipt_hash: jcsDigest(linked) };
}

/** The line written for a record: its JCS form (sorted keys, no spaces) and a newline. */
export function auditLine(record: Sealed<AuditRecord>): string {
  return canonicalize(record) + '\n';
}
