/**
 * The builtin runtime: a skill of the default bundle runs in-process, reaching files, network,
 * processes and environment only through the policy gate. Its time budget is enforced by
 * aborting its signal and no longer waiting for it.
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import { canonicalize } from '../../digest/index.js';
import type { GrantedPermissions } from '../../policy/grant.js';
import type { RecordingGate } from '../../policy/index.js';
import { failed, type Attempt } from '../attempt.js';
import type { BuiltinContext, BuiltinLimits, BuiltinSkill } from '../builtin.js';
import { programDirs, sandboxPrefix, type SandboxMode } from '../sandbox.js';

/** Finds the implementation of `builtin:<skill_id>`; undefined when this skillctl has none. */
export type BuiltinLookup = (skillId: string) => Promise<BuiltinSkill | undefined>;

export interface BuiltinRunOptions {
  readonly skill: BuiltinSkill;
  readonly cwd: string;
  readonly gate: RecordingGate;
  readonly limits: BuiltinLimits;
  readonly env: Readonly<Record<string, string>>;
  readonly monotonic: () => number;
  readonly confine: BuiltinContext['confine'];
}

export interface ConfineOptions {
  readonly mode: SandboxMode;
  /** The scrubbed environment's PATH, where bwrap is looked up. */
  readonly pathEnv: string;
  readonly granted: Pick<GrantedPermissions, 'fsRead' | 'fsWrite' | 'netHttp'>;
  /** Real paths no program may write even inside a write grant (policy, lock, audit log). */
  readonly protectedPaths: readonly string[];
  /** Told the sandbox each program runs in, with the findings about it (RUN_UNSANDBOXED). */
  readonly report: (sandbox: 'bwrap' | 'none', diagnostics: readonly Diagnostic[]) => void;
}

/** `ctx.confine` for a run: the process runtimes' sandbox (sandbox.ts), without a bundle. */
export function confiner(o: ConfineOptions): BuiltinContext['confine'] {
  return async (file, args, cwd) => {
    const c = await sandboxPrefix({
      mode: o.mode,
      pathEnv: o.pathEnv,
      cwd,
      runtimeDirs: await programDirs(file),
      read: o.granted.fsRead,
      write: o.granted.fsWrite,
      network: o.granted.netHttp.length > 0,
      protect: o.protectedPaths,
    });
    if ('refused' in c) return { ok: false, outcome: { status: 'unavailable', diagnostics: [c.refused] } };
    o.report(c.sandbox, c.diagnostics);
    const [head, ...rest] = [...c.prefix, file, ...args] as [string, ...string[]];
    return { ok: true, file: head, args: rest, sandbox: c.sandbox };
  };
}

const none = { stdoutTruncated: false, stderrTruncated: false };

export async function runBuiltin(o: BuiltinRunOptions, input: unknown, outer?: AbortSignal): Promise<Attempt> {
  const controller = new AbortController();
  const onOuter = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  const ctx: BuiltinContext = { cwd: o.cwd, policy: o.gate, limits: o.limits, env: o.env, signal: controller.signal, now: o.monotonic, confine: o.confine };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve('timeout');
    }, o.limits.timeoutMs);
  });
  try {
    const result = await Promise.race([o.skill.run(input, ctx), timeout]);
    if (result === 'timeout' || controller.signal.aborted) {
      return { outcome: failed('timeout', [diag('RUN_TIMEOUT', `the skill ran past ${o.limits.timeoutMs} ms and was aborted`)]), ...none };
    }
    switch (result.status) {
      case 'ok': {
        let text: string;
        try {
          text = canonicalize(result.output);
        } catch {
          return { outcome: failed('output_invalid', [diag('RUN_OUTPUT_INVALID', 'the skill returned a value that is not JSON; it was discarded')]), ...none };
        }
        if (Buffer.byteLength(text) > o.limits.maxOutputBytes) {
          return { outcome: failed('output_limit', [diag('RUN_OUTPUT_LIMIT', `the output passed ${o.limits.maxOutputBytes} bytes; it was discarded`)]), stdoutTruncated: true, stderrTruncated: false };
        }
        return { outcome: { kind: 'output', value: JSON.parse(text) as unknown }, ...none };
      }
      case 'error':
        return { outcome: { kind: 'error', value: result.error }, ...none };
      case 'denied': {
        const { code, reason, scope } = result.decision;
        // A refusal the skill made itself is recorded too, so the audit record names it.
        const recorded = o.gate.uses.some((u) => !u.allowed && u.code === code && u.reason === reason);
        if (!recorded && scope !== undefined) o.gate.recordRefusal(scope, code, reason);
        return { outcome: failed('denied', [diag(code, `${result.operation}: ${reason}`)]), ...none };
      }
      case 'unavailable':
        return { outcome: failed('unavailable', result.diagnostics), ...none };
      default: {
        const never: never = result;
        return never;
      }
    }
  } catch (err) {
    return { outcome: failed('failed', [diag('RUN_SKILL_FAILED', `the skill threw: ${err instanceof Error ? err.message : String(err)}`)]), ...none };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}
