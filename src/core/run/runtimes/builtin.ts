/**
 * The builtin runtime: a skill of the default bundle runs in-process, reaching files, network,
 * processes and environment only through the policy gate. Its time budget is enforced by
 * aborting its signal and no longer waiting for it.
 */
import { diag } from '../../diagnostics.js';
import { canonicalize } from '../../digest/index.js';
import type { RecordingGate } from '../../policy/index.js';
import { failed, type Attempt } from '../attempt.js';
import type { BuiltinContext, BuiltinLimits, BuiltinSkill } from '../builtin.js';

/** Finds the implementation of `builtin:<skill_id>`; undefined when this skillctl has none. */
export type BuiltinLookup = (skillId: string) => Promise<BuiltinSkill | undefined>;

export interface BuiltinRunOptions {
  readonly skill: BuiltinSkill;
  readonly cwd: string;
  readonly gate: RecordingGate;
  readonly limits: BuiltinLimits;
  readonly env: Readonly<Record<string, string>>;
  readonly monotonic: () => number;
}

const none = { stdoutTruncated: false, stderrTruncated: false };

export async function runBuiltin(o: BuiltinRunOptions, input: unknown, outer?: AbortSignal): Promise<Attempt> {
  const controller = new AbortController();
  const onOuter = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  const ctx: BuiltinContext = { cwd: o.cwd, policy: o.gate, limits: o.limits, env: o.env, signal: controller.signal, now: o.monotonic };
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
      case 'denied':
        return { outcome: failed('denied', [diag(result.decision.code, `${result.operation}: ${result.decision.reason}`)]), ...none };
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
