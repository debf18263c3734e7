/**
 * One execution of an entrypoint, whatever its runtime, before contracts are checked: what came
 * back (an output, an error the skill reported, or a failure), and the output-bound flags.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { firstError, readJsonValue, refusalOf } from './json.js';
import { bwrapComplaint, bwrapSetupFailed } from './sandbox.js';
import type { SpawnOutcome } from './process-runner.js';

/** How an invocation ended; recorded in the audit log as `result.status`. */
export type RunStatus =
  | 'ok'
  | 'skill_error'
  | 'failed'
  | 'denied'
  | 'timeout'
  | 'output_limit'
  | 'memory_limit'
  | 'output_invalid'
  | 'error_invalid'
  | 'input_invalid'
  | 'unavailable'
  | 'bundle_invalid'
  | 'not_found'
  | 'policy_invalid'
  /** SIGINT or SIGTERM stopped the run. */
  | 'interrupted';

export type AttemptOutcome =
  /** A JSON output, not yet checked against output_schema. */
  | { readonly kind: 'output'; readonly value: unknown }
  /** An error the skill reported, not yet checked against error_schema. */
  | { readonly kind: 'error'; readonly value: unknown }
  | { readonly kind: 'failed'; readonly status: RunStatus; readonly diagnostics: readonly Diagnostic[] };

export interface Attempt {
  readonly outcome: AttemptOutcome;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** What the process wrote to stderr (bounded), shown to the user, never audited. */
  readonly stderr?: string;
}

const OOM = /JavaScript heap out of memory|Array buffer allocation failed|Fatal process OOM|MemoryError|Cannot allocate memory|std::bad_alloc|out of memory/i;

export function failed(status: RunStatus, diagnostics: readonly Diagnostic[]): AttemptOutcome {
  return { kind: 'failed', status, diagnostics };
}

/** The run's signal was aborted (SIGINT or SIGTERM reached skillctl): the skill was stopped. */
export function interrupted(): Attempt {
  return { outcome: failed('interrupted', [diag('RUN_INTERRUPTED', 'the run was interrupted; the skill and its processes were stopped')]), stdoutTruncated: false, stderrTruncated: false };
}

const PRINT_JSON = 'a process entrypoint prints one JSON document on stdout';

/**
 * Reads JSON the skill printed; a RUN_OUTPUT_NOT_JSON finding when it is not one JSON document,
 * at the line and column of stdout where the first error is (the reader's own codes are about
 * manifests, and would send the user looking for one).
 */
export async function parseJsonOutput(bytes: Uint8Array, what: string): Promise<{ value: unknown } | { diagnostics: Diagnostic[] }> {
  if (bytes.length === 0) return { diagnostics: [diag('RUN_OUTPUT_NOT_JSON', `the skill printed no ${what}`, { file: 'stdout', hint: PRINT_JSON })] };
  // Any JSON value (a payload may be a string), read with the hostile-document guards.
  const parsed = await readJsonValue(bytes);
  if ('errors' in parsed) {
    const first = firstError(parsed.errors);
    return {
      diagnostics: [
        diag('RUN_OUTPUT_NOT_JSON', `the skill's ${what} ${refusalOf(first)}; it was discarded`, {
          file: 'stdout',
          ...(first?.line !== undefined ? { line: first.line, column: first.column ?? 1 } : {}),
          hint: first?.hint ?? PRINT_JSON,
        }),
      ],
    };
  }
  return { value: parsed.data };
}

/** A process the run's cgroup killed for passing max_memory. */
export function memoryLimited(r: SpawnOutcome, limits: { memoryMiB: number }): Attempt {
  return {
    outcome: failed('memory_limit', [diag('RUN_MEMORY_LIMIT', `the skill's processes together passed their ${limits.memoryMiB} MiB memory allowance and were killed`)]),
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
    stderr: r.stderr.toString('utf8'),
  };
}

/**
 * Turns how a process ended into an attempt outcome. `bwrapFailed`: bubblewrap itself is known to
 * have failed to set the sandbox up (its complaint on stderr, and a sandbox of the same mounts
 * that could not start an empty command either). The complaint alone is text the skill can print:
 * a skill that wrote `bwrap: Creating new namespace failed` and exited 1 was reported as a sandbox
 * that cannot start, with the hint to run it again with `--sandbox none`, unconfined.
 */
export async function interpretProcess(r: SpawnOutcome, limits: { timeoutMs: number; maxOutputBytes: number; memoryMiB: number }, bwrapFailed = false): Promise<Attempt> {
  const flags = { stdoutTruncated: r.stdoutTruncated, stderrTruncated: r.stderrTruncated, stderr: r.stderr.toString('utf8') };
  const end = (outcome: AttemptOutcome): Attempt => ({ outcome, ...flags });
  if (r.aborted) return { ...interrupted(), ...flags };
  if (r.spawnError !== undefined) {
    return end(failed('unavailable', [diag('RUN_RUNTIME_UNAVAILABLE', `the process could not be started (${r.spawnError})`)]));
  }
  if (r.timedOut) {
    return end(failed('timeout', [diag('RUN_TIMEOUT', `the skill ran past ${limits.timeoutMs} ms; its process group was killed`)]));
  }
  if (r.outputLimit) {
    return end(failed('output_limit', [diag('RUN_OUTPUT_LIMIT', `stdout passed ${limits.maxOutputBytes} bytes; the skill was stopped and its output discarded`)]));
  }
  if (r.exitCode === 0) {
    const parsed = await parseJsonOutput(r.stdout, 'output');
    return end('value' in parsed ? { kind: 'output', value: parsed.value } : failed('output_invalid', parsed.diagnostics));
  }
  const bwrap = bwrapFailed ? bwrapComplaint(r.exitCode, r.stdout, r.stderrTail) : undefined;
  if (bwrap !== undefined) {
    return end(failed('unavailable', [bwrapSetupFailed(bwrap.message)]));
  }
  if (OOM.test(r.stderrTail)) {
    return end(failed('memory_limit', [diag('RUN_MEMORY_LIMIT', `the skill ran out of its ${limits.memoryMiB} MiB memory allowance`)]));
  }
  const how = r.exitCode !== null ? `exited with status ${r.exitCode}` : `was killed by ${r.signal ?? 'a signal'}`;
  if (r.stdout.length > 0) {
    const parsed = await parseJsonOutput(r.stdout, 'error');
    if ('value' in parsed) return end({ kind: 'error', value: parsed.value });
  }
  return end(failed('failed', [diag('RUN_SKILL_FAILED', `the skill's process ${how}`)]));
}
