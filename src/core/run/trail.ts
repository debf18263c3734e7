/**
 * What one run learns as its steps go (identity, decision, findings), and the result it ends
 * with: every step adds to the trail, and any step may end the run with a status. The result
 * carries the audit record built from the trail; with an audit sink, the record is appended there
 * (chained to the log) before the result is returned.
 */
import type { Diagnostic } from '../diagnostics.js';
import { exitStatusOf } from '../exit-status.js';
import type { RunStatus } from './attempt.js';
import { sealRecord, type AuditRecord, type Sealed, type SealedAuditRecord } from './audit.js';
import { runFingerprints, type FingerprintFields } from './fingerprints.js';
import { buildRecord, newRunId, startRecord, type RunFacts } from './record.js';

/** Where records go as the run makes them: a `started` record, then the outcome. */
export interface AuditSink {
  /** Appends the record (sealed and chained to the log's last record) and returns it as written. */
  append<R extends AuditRecord>(record: R): Promise<Sealed<R>>;
}

/** Time, passed in: `now` for the record's timestamps, `monotonic` for durations. */
export interface Clock {
  now(): number;
  monotonic(): number;
}

export interface RunResult {
  readonly status: RunStatus;
  readonly exitCode: number;
  /** The accepted output: present only when it conformed to output_schema. */
  readonly output?: unknown;
  /** An error the skill reported that conforms to its error_schema. */
  readonly error?: unknown;
  /** What a process wrote on stderr (bounded), for the user; never in the record. */
  readonly stderr?: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly record: SealedAuditRecord;
}

export class RunTrail {
  readonly facts: RunFacts;
  readonly diagnostics: Diagnostic[] = [];
  stderr: string | undefined;
  readonly #startedAt: number;
  readonly #t0: number;
  /** The manifest file and the entrypoint's pointer, once known. */
  #file: string | undefined;
  #pointer = '';
  /** What the fingerprints are computed from: held here, never written (only digests are). */
  #fingerprinted: { readonly fields: FingerprintFields; readonly input: unknown } | undefined;

  constructor(
    target: string,
    policy: { readonly source: string; readonly digest?: string },
    private readonly clock: Clock,
    private readonly skillctlVersion: string,
    private readonly sink?: AuditSink,
    /** The run's signal: its reason (`SIGINT`, `SIGTERM`) decides an interrupted run's exit status. */
    private readonly signal?: AbortSignal,
  ) {
    this.#startedAt = clock.now();
    this.#t0 = clock.monotonic();
    this.facts = {
      runId: newRunId(),
      target,
      policySource: policy.source,
      ...(policy.digest !== undefined ? { policyDigest: policy.digest } : {}),
      uses: [],
      observable: false,
      attempts: 0,
      truncated: { stdout: false, stderr: false },
    };
  }

  add(...found: readonly Diagnostic[]): void {
    for (const d of found) this.diagnostics.push(d);
  }

  /** The engine's own findings about the entrypoint point into it from the manifest's root. */
  locate(file: string, pointer: string): void {
    this.#file = file;
    this.#pointer = pointer;
  }

  /** The entrypoint's fingerprint fields and the input: the args fingerprint now, the others with the result. */
  fingerprint(fields: FingerprintFields, input: unknown): void {
    this.#fingerprinted = { fields, input };
    this.facts.fingerprints = runFingerprints(fields, input);
  }

  /** The `start` record: written before anything of the skill runs, so a run that never ends is seen. */
  async started(): Promise<void> {
    await this.sink?.append(startRecord(this.facts, this.#startedAt, this.skillctlVersion));
  }

  #times(): { startedAt: number; finishedAt: number; durationMs: number } {
    return { startedAt: this.#startedAt, finishedAt: this.clock.now(), durationMs: this.clock.monotonic() - this.#t0 };
  }

  async end(status: RunStatus, extra: { readonly output?: unknown; readonly error?: unknown } = {}): Promise<RunResult> {
    const diagnostics = this.diagnostics.map((d) =>
      d.file === undefined && d.pointer !== undefined && this.#file !== undefined ? { ...d, file: this.#file, pointer: `${this.#pointer}${d.pointer}` } : d,
    );
    if (this.#fingerprinted !== undefined && extra.output !== undefined) {
      this.facts.fingerprints = runFingerprints(this.#fingerprinted.fields, this.#fingerprinted.input, { output: extra.output });
    }
    const exitCode = status === 'interrupted' ? (this.signal?.reason === 'SIGTERM' ? 143 : 130) : exitStatusOf(diagnostics);
    const record = buildRecord(this.facts, status, exitCode, diagnostics, this.#times(), this.skillctlVersion);
    const sealed = this.sink !== undefined ? await this.sink.append(record) : sealRecord(record);
    return {
      status,
      exitCode,
      ...extra,
      ...(this.stderr !== undefined && this.stderr !== '' ? { stderr: this.stderr } : {}),
      diagnostics,
      record: sealed,
    };
  }
}
