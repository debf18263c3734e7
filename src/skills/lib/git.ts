/**
 * Read-only git for git.status and git.diff. git runs code from configuration and attributes
 * (fsmonitor, hooks, pagers, clean/smudge/process filters, textconv and external diff drivers,
 * gpg for signed commits), and a repository's own .git/config is as untrusted as its files. So
 * git runs in the run's sandbox (`ctx.confine`: with bubblewrap it sees only the system
 * directories and the granted paths, read-only unless fs.write grants them, with a private /tmp
 * and no network), and, so that nothing runs even with `--sandbox none`, every invocation runs
 * without system or global configuration, with optional locks off (status never refreshes the
 * index, so git writes nothing), with the code-running settings overridden, and with each filter
 * the repository's configuration defines neutralised. Only subcommands that do not write are used.
 */
import type { BuiltinContext, BuiltinOutcome } from '../../core/run/index.js';
import { childEnv } from './env.js';
import { denied, fail } from './outcome.js';
import { spawnConfined } from './confined.js';
import type { SpawnOutcome } from '../../core/run/index.js';
import { lenientUtf8 } from './text.js';

const HARDENING = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.pager=cat',
  '-c', 'core.attributesFile=/dev/null',
  '-c', 'core.untrackedCache=false',
  '-c', 'protocol.allow=never',
  '-c', 'diff.external=',
  // A signed commit would have `git show` run gpg.program (or gpg.ssh.program) to verify it.
  '-c', 'log.showSignature=false',
  '-c', 'color.ui=false',
];

/**
 * Set over the scrubbed environment, from which every GIT_* name (GIT_DIR, GIT_WORK_TREE,
 * GIT_INDEX_FILE, GIT_EXTERNAL_DIFF, GIT_CONFIG_PARAMETERS...) and PAGER are dropped even when the
 * policy lets them through. System and global configuration are the host user's, not the
 * repository's: skipped, the answer depends on the repository alone and no user-wide setting
 * (a pager, an fsmonitor hook) runs. The repository's own configuration is still read, since
 * settings such as core.autocrlf, core.ignoreCase, core.worktree or extensions.objectFormat decide
 * what its files and objects mean; whatever in it names a command is overridden (HARDENING and
 * the per-repository overrides below).
 */
const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_TERMINAL_PROMPT: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  LC_ALL: 'C',
};

/** Configuration keys whose value is a command git would run: each is overridden with nothing. */
const COMMAND_KEY = /^(?:filter\.(.+)\.(?:clean|smudge|process)|diff\.(.+)\.(?:textconv|command)|merge\.(.+)\.driver)$/;

export interface GitRunner {
  /** Runs `git <args>` in the work tree; stdout beyond `maxStdout` bytes stops git. */
  run(args: readonly string[], maxStdout: number): Promise<{ result: SpawnOutcome } | { outcome: BuiltinOutcome }>;
}

export type GitOpen = { readonly git: GitRunner } | { readonly outcome: BuiltinOutcome };

const STDERR_MAX = 16 * 1024;
const CONFIG_MAX = 1024 * 1024;

/** Asks the policy for the working directory, then reads the repository's configuration. */
export async function openGit(ctx: BuiltinContext): Promise<GitOpen> {
  const dir = await ctx.policy.checkRead(ctx.cwd);
  if (!dir.allowed) return { outcome: denied(dir, `read ${ctx.cwd}`) };
  const env = { ...childEnv(ctx, (name) => name.startsWith('GIT_') || name === 'PAGER'), ...FIXED_ENV };
  let overrides: string[] = [];

  const exec = async (args: readonly string[], maxStdout: number): Promise<{ result: SpawnOutcome } | { outcome: BuiltinOutcome }> => {
    const argv = ['git', ...HARDENING, ...overrides, ...args];
    const decision = await ctx.policy.checkExec(argv);
    if (!decision.allowed) return { outcome: denied(decision, `exec git ${args[0] ?? ''}`) };
    let seen = 0;
    // In the run's sandbox: whatever a repository still gets git to run can reach only the grants.
    const run = await spawnConfined(ctx, decision.resolved, argv.slice(1), {
      cwd: dir.resolved,
      env,
      timeoutMs: ctx.limits.timeoutMs,
      maxStdout: maxStdout + 1,
      maxStderr: STDERR_MAX,
      signal: ctx.signal,
      onStdout: (chunk) => (seen += chunk.length) > maxStdout,
    });
    if (run.kind === 'no-sandbox') return { outcome: run.outcome };
    if (run.kind === 'not-started') return { outcome: fail('SKILL_EXEC_FAILED', `git could not be started (${run.reason})`) };
    const result = run.result;
    if (result.timedOut || result.aborted) return { outcome: fail('SKILL_TIMED_OUT', `git ${args[0] ?? ''} ran out of time`) };
    if (!result.stopped && result.exitCode !== 0) {
      const stderr = lenientUtf8(result.stderr).trim();
      if (/not a git repository/i.test(stderr)) return { outcome: fail('SKILL_NOT_A_REPOSITORY', `${ctx.cwd} is not inside a git work tree`) };
      return { outcome: fail('SKILL_GIT_FAILED', `git ${args[0] ?? ''} failed: ${stderr.split('\n')[0] ?? ''}`, { exit_code: result.exitCode }) };
    }
    return { result };
  };

  const config = await exec(['config', '--null', '--list'], CONFIG_MAX);
  if ('outcome' in config) return config;
  const keys = new Set<string>();
  for (const item of lenientUtf8(config.result.stdout).split('\u0000')) {
    const key = item.split('\n', 1)[0] ?? '';
    const m = COMMAND_KEY.exec(key);
    if (m === null) continue;
    keys.add(key);
    const filter = m[1];
    if (filter !== undefined) keys.add(`filter.${filter}.required`);
  }
  overrides = [...keys].sort().flatMap((k) => ['-c', k.endsWith('.required') ? `${k}=false` : `${k}=`]);
  return { git: { run: exec } };
}
