/**
 * Starts a program a built-in skill was allowed to run inside the run's sandbox (`ctx.confine`):
 * with bubblewrap it sees only the system directories, its own directory, the granted paths and a
 * private /tmp. Every program the default bundle starts (shell.exec_safe, git, rg) goes through here.
 */
import type { BuiltinContext, BuiltinOutcome } from '../../core/run/index.js';
import { bwrapComplaint, bwrapSetupFailed } from '../../core/run/sandbox.js';
import { spawnBounded, type SpawnOptions, type SpawnResult } from './proc.js';

export type ConfinedRun =
  /** The program ran (whatever its exit status) in `sandbox`. */
  | { readonly kind: 'ran'; readonly result: SpawnResult; readonly sandbox: 'bwrap' | 'none' }
  /** It could not be started: spawn's error code, or bubblewrap's `execvp` complaint. */
  | { readonly kind: 'not-started'; readonly reason: string }
  /** The sandbox the run asks for cannot be had here (RUN_SANDBOX_UNAVAILABLE): end the skill with `outcome`. */
  | { readonly kind: 'no-sandbox'; readonly outcome: BuiltinOutcome };

/** Runs `file` (as checkExec resolved it) with `args` in the sandbox, in `opts.cwd`. */
export async function spawnConfined(ctx: BuiltinContext, file: string, args: readonly string[], opts: SpawnOptions): Promise<ConfinedRun> {
  const confined = await ctx.confine(file, args, opts.cwd);
  if (!confined.ok) return { kind: 'no-sandbox', outcome: confined.outcome };
  const result = await spawnBounded(confined.file, confined.args, opts);
  if (result.spawnError !== undefined) return { kind: 'not-started', reason: result.spawnError };
  if (confined.sandbox === 'bwrap') {
    const bwrap = bwrapComplaint(result.exitCode, result.stdout, result.stderr.toString('utf8'));
    if (bwrap?.exec === true) return { kind: 'not-started', reason: `in the sandbox: ${bwrap.message}` };
    if (bwrap !== undefined) return { kind: 'no-sandbox', outcome: { status: 'unavailable', diagnostics: [bwrapSetupFailed(bwrap.message)] } };
  }
  return { kind: 'ran', result, sandbox: confined.sandbox };
}
