/**
 * The contract between the run engine and the built-in skills (src/skills/<skill_id>.ts). A
 * built-in skill is TypeScript that skillctl runs in a worker thread it can stop at the deadline;
 * it never reads the process environment, never prints, reaches files only through `ctx.files`
 * (the checked layer: it judges what it opened, not a path it checked earlier), and reaches the
 * network, programs and variables only after asking the host policy through `ctx.policy`, on every
 * operation. A program it starts runs under the run's OS isolation, set up by `ctx.confine`.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { CheckedFs, PolicyDecision, PolicyGate } from '../policy/index.js';
import type { SpawnOutcome, SpawnSpec } from './process-runner.js';

export type { PolicyDecision, PolicyGate };

export interface BuiltinLimits {
  /** Wall-clock budget of the whole call, after the host policy's cap. */
  readonly timeoutMs: number;
  /** Output bound, after the host policy's cap. Request-level bounds are clamped to it. */
  readonly maxOutputBytes: number;
  readonly memoryMiB: number;
}

export interface BuiltinContext {
  /** Absolute working directory of the run. */
  readonly cwd: string;
  readonly policy: PolicyGate;
  /** Every file and directory a built-in reads, lists or writes, checked as it is opened. */
  readonly files: CheckedFs;
  readonly limits: BuiltinLimits;
  /** Scrubbed environment: PATH plus granted names only. Never the process environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Aborted when the time budget runs out or the run is cancelled. */
  readonly signal: AbortSignal;
  /** Milliseconds since an arbitrary origin, for `duration_ms` fields. */
  now(): number;
  /**
   * Sets up a program the policy let the skill run (`file` as checkExec resolved it) to run under
   * the run's sandbox (`--sandbox`): with bubblewrap, the program sees only the system directories,
   * its own directory, the granted paths (fs.read read-only, fs.write read-write, protected files
   * read-only) and a private /tmp, and reaches the network only when net.http is granted, and then
   * only through the egress proxy, which checks each request against the grant. Spawn the
   * returned `file` and `args` in `cwd` (a directory the policy let the skill read); when the run
   * asks for a sandbox this host cannot give, end the skill with the returned outcome.
   */
  confine(file: string, args: readonly string[], cwd: string): Promise<Confinement>;
  /**
   * Runs the part of a write that must not be cut halfway (renaming prepared files into place):
   * the run's deadline waits for it, within a bounded grace, so a stopped skill leaves the tree as
   * it was or as the skill completed it, never between.
   */
  commit<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Registers a file or directory (its real path) the skill created on the way to a result (a
   * temporary file, a new parent directory). If the run is stopped before the skill's next
   * commit ends, the run removes it; a commit that ends takes over what was registered.
   */
  scratch(path: string, kind: 'file' | 'dir'): void;
}

/** A program set up to run in the run's sandbox, or why it cannot be. */
export type Confinement =
  | {
      readonly ok: true;
      readonly sandbox: 'bwrap' | 'none';
      /** Starts the program (with the sandbox's prefix) under the run's process tracking. */
      run(spec: Omit<SpawnSpec, 'argv' | 'cwd'>): Promise<SpawnOutcome>;
    }
  | { readonly ok: false; readonly outcome: BuiltinOutcome };

/** What a built-in skill returns. The engine validates `output` against the output_schema. */
export type BuiltinOutcome =
  | { readonly status: 'ok'; readonly output: unknown }
  /** The skill's own failure, shaped by its error_schema (e.g. a binary file for fs.read_text). */
  | { readonly status: 'error'; readonly error: { readonly code: string; readonly message: string; readonly [k: string]: unknown } }
  /** A policy check said no: the run ends with exit 3 and the audit record names the decision. */
  | { readonly status: 'denied'; readonly decision: Extract<PolicyDecision, { allowed: false }>; readonly operation: string }
  /** The host cannot give what the run asks for (`--sandbox bwrap` without bubblewrap): the run is `unavailable`. */
  | { readonly status: 'unavailable'; readonly diagnostics: readonly Diagnostic[] };

export interface BuiltinSkill {
  /** The skill_id, e.g. fs.read_text; manifests reference it as `command: builtin:<skill_id>`. */
  readonly id: string;
  run(input: unknown, ctx: BuiltinContext): Promise<BuiltinOutcome>;
}
