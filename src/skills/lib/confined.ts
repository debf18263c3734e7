/**
 * Starts a program a built-in skill was allowed to run inside the run's sandbox (`ctx.confine`):
 * with bubblewrap it sees only the system directories, its own directory, the granted paths and a
 * private /tmp. Every program the default bundle starts (shell.exec_safe, git, rg) goes through here.
 */
import type { BuiltinContext, BuiltinOutcome, SpawnOutcome, SpawnSpec } from '../../core/run/index.js';
import { bwrapComplaint, bwrapSetupFailed } from '../../core/run/index.js';

export type ConfinedRun =
  /** The program ran (whatever its exit status) in `sandbox`. */
  | { readonly kind: 'ran'; readonly result: SpawnOutcome; readonly sandbox: 'bwrap' | 'none' }
  /** It could not be started: spawn's error code, or bubblewrap's `execvp` complaint. */
  | { readonly kind: 'not-started'; readonly reason: string }
  /** The sandbox the run asks for cannot be had here (RUN_SANDBOX_UNAVAILABLE): end the skill with `outcome`. */
  | { readonly kind: 'no-sandbox'; readonly outcome: BuiltinOutcome };

export type ConfinedSpec = Omit<SpawnSpec, 'argv' | 'cwd'> & { readonly cwd: string };

/** Runs `file` (as checkExec resolved it) with `args` in the sandbox, in `spec.cwd`. */
export async function spawnConfined(ctx: BuiltinContext, file: string, args: readonly string[], spec: ConfinedSpec): Promise<ConfinedRun> {
  const { cwd, ...rest } = spec;
  const confined = await ctx.confine(file, args, cwd);
  if (!confined.ok) return { kind: 'no-sandbox', outcome: confined.outcome };
  const result = await confined.run(rest);
  if (result.spawnError !== undefined) return { kind: 'not-started', reason: result.spawnError };
  if (confined.sandbox === 'bwrap') {
    const bwrap = bwrapComplaint(result.exitCode, result.stdout, result.stderr.toString('utf8'));
    if (bwrap?.exec === true) return { kind: 'not-started', reason: `in the sandbox: ${bwrap.message}` };
    if (bwrap !== undefined) return { kind: 'no-sandbox', outcome: { status: 'unavailable', diagnostics: [bwrapSetupFailed(bwrap.message)] } };
  }
  return { kind: 'ran', result, sandbox: confined.sandbox };
}
