/**
 * The contract between the run engine (src/core/run, issue "skillctl run") and the built-in
 * skills (src/skills/<skill_id>.ts). A built-in skill is in-process TypeScript; it never reads
 * the process environment, never prints, and reaches the file system, network and processes only
 * after asking the host policy through `ctx.policy`, on every operation (not only at start). A
 * program it starts runs under the run's OS isolation, set up by `ctx.confine`.
 */
import type { Code, Diagnostic } from '../diagnostics.js';

/** The host policy's answer for one operation. `resolved` is what the skill must then use. */
export type PolicyDecision =
  | {
      readonly allowed: true;
      readonly resolved: string;
      /**
       * checkUrl only: the IP address the host checked. Connect to it (keeping the URL's host name
       * for the Host header and TLS) so that a second DNS answer cannot lead somewhere else.
       */
      readonly address?: string;
    }
  | {
      readonly allowed: false;
      readonly code: Code;
      readonly reason: string;
      /**
       * The permission scope the refused operation needed. The engine's gate always says; a skill
       * that refuses an operation itself (beyond the gate's checks) must say, so the audit record
       * can name the refusal like the gate's own.
       */
      readonly scope?: 'fs.read' | 'fs.write' | 'net.http' | 'exec' | 'env';
    };

/** Host-policy checks available to a built-in skill. Each use is recorded for the audit trail. */
export interface PolicyGate {
  /** May the skill read this path? Relative paths resolve against `ctx.cwd`; symlinks are resolved. */
  checkRead(path: string): Promise<PolicyDecision>;
  /** May the skill create, modify or delete this path? */
  checkWrite(path: string): Promise<PolicyDecision>;
  /** May the skill fetch this URL (and, for redirects, each hop)? Includes the address checks. */
  checkUrl(url: string): Promise<PolicyDecision>;
  /** May the skill run this argv (argv[0] a name or absolute path)? `resolved` is the executable. */
  checkExec(argv: readonly string[]): Promise<PolicyDecision>;
  /** May the skill see this environment variable? */
  checkEnv(name: string): PolicyDecision;
}

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
   * read-only) and a private /tmp, and has no network unless net.http is granted. Spawn the
   * returned `file` and `args` in `cwd` (a directory the policy let the skill read); when the run
   * asks for a sandbox this host cannot give, end the skill with the returned outcome.
   */
  confine(file: string, args: readonly string[], cwd: string): Promise<Confinement>;
}

/** A program set up to run in the run's sandbox, or why it cannot be. */
export type Confinement =
  | { readonly ok: true; readonly file: string; readonly args: readonly string[]; readonly sandbox: 'bwrap' | 'none' }
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
