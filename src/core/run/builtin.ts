/**
 * The contract between the run engine (src/core/run, issue "skillctl run") and the built-in
 * skills (src/skills/<skill_id>.ts). A built-in skill is in-process TypeScript; it never reads
 * the process environment, never prints, and reaches the file system, network and processes only
 * after asking the host policy through `ctx.policy`, on every operation (not only at start).
 */
import type { Code } from '../diagnostics.js';

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
  | { readonly allowed: false; readonly code: Code; readonly reason: string };

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
}

/** What a built-in skill returns. The engine validates `output` against the output_schema. */
export type BuiltinOutcome =
  | { readonly status: 'ok'; readonly output: unknown }
  /** The skill's own failure, shaped by its error_schema (e.g. a binary file for fs.read_text). */
  | { readonly status: 'error'; readonly error: { readonly code: string; readonly message: string; readonly [k: string]: unknown } }
  /** A policy check said no: the run ends with exit 3 and the audit record names the decision. */
  | { readonly status: 'denied'; readonly decision: Extract<PolicyDecision, { allowed: false }>; readonly operation: string };

export interface BuiltinSkill {
  /** The skill_id, e.g. fs.read_text; manifests reference it as `command: builtin:<skill_id>`. */
  readonly id: string;
  run(input: unknown, ctx: BuiltinContext): Promise<BuiltinOutcome>;
}
