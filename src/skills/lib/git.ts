/**
 * Read-only git for git.status and git.diff, on a repository that is attacker-controlled input
 * (DESIGN.md, "Confinement": "Arguments and repositories are input"). git runs code named by
 * configuration and attributes (fsmonitor, hooks, pagers, clean/smudge/process filters, textconv
 * and external diff drivers, gpg for signed commits, the commands of a partial clone's remote), and
 * a repository's own configuration is as untrusted as its files. Two defences, each enough on its
 * own for what it covers:
 * - git runs in the run's sandbox (`ctx.confine`): with bubblewrap it sees only the system
 *   directories and the granted paths, read-only unless fs.write grants them, with a private /tmp
 *   and no network;
 * - so that nothing runs even with `--sandbox none`, git runs without system or global
 *   configuration, with optional locks off (status never refreshes the index, so git writes
 *   nothing), and with every setting that names a program overridden: the repository's
 *   configuration is read whole first (git-config.ts), and every place git would read is put to
 *   the policy (git-place.ts). What cannot be read whole or neutralised is refused.
 * Only subcommands that do not write are used.
 */
import type { BuiltinContext, BuiltinOutcome, SpawnOutcome } from '../../core/run/index.js';
import { childEnv } from './env.js';
import { CONFIG_MAX, configEnv, configFiles, DROPPED_ENV, FIXED, NEUTRAL_ENV, neutralise, olderThan231, parseListing, tookOverrides, type ConfigEntry } from './git-config.js';
import { checkPlace, parsePlace, PLACE_ARGS, refuse } from './git-place.js';
import { denied, fail } from './outcome.js';
import { spawnConfined } from './confined.js';
import { lenientUtf8 } from './text.js';

/**
 * Set over the scrubbed environment, from which every GIT_* name (GIT_DIR, GIT_WORK_TREE,
 * GIT_INDEX_FILE, GIT_EXTERNAL_DIFF, GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT...), the pager and
 * editor variables and SSH_ASKPASS are dropped even when the policy lets them through. System and
 * global configuration are the host user's, not the repository's: skipped, the answer depends on
 * the repository alone and no user-wide setting runs. The repository's own configuration is still
 * read, since settings such as core.autocrlf, core.ignoreCase or extensions.objectFormat decide
 * what its files and objects mean; whatever in it names a command is overridden (git-config.ts).
 */
const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  ...NEUTRAL_ENV,
};

export interface GitRunner {
  /** Runs `git <args>` in the work tree; stdout beyond `maxStdout` bytes stops git. */
  run(args: readonly string[], maxStdout: number): Promise<{ result: SpawnOutcome } | { outcome: BuiltinOutcome }>;
}

export type GitOpen = { readonly git: GitRunner } | { readonly outcome: BuiltinOutcome };

type Ran = { result: SpawnOutcome } | { outcome: BuiltinOutcome };

const STDERR_MAX = 16 * 1024;

function firstLine(result: SpawnOutcome): string {
  return lenientUtf8(result.stderr).trim().split('\n')[0] ?? '';
}

/** A run that exited non-zero, as the skill reports it. */
function failed(ctx: BuiltinContext, args: readonly string[], result: SpawnOutcome): BuiltinOutcome {
  if (/not a git repository/i.test(lenientUtf8(result.stderr))) return fail('SKILL_NOT_A_REPOSITORY', `${ctx.cwd} is not inside a git work tree`);
  return fail('SKILL_GIT_FAILED', `git ${args[0] ?? ''} failed: ${firstLine(result)}`, { exit_code: result.exitCode });
}

/** Asks the policy for the working directory, reads the configuration whole, checks where git reads. */
export async function openGit(ctx: BuiltinContext): Promise<GitOpen> {
  const dir = await ctx.policy.checkRead(ctx.cwd);
  if (!dir.allowed) return { outcome: denied(dir, `read ${ctx.cwd}`) };
  const cwd = dir.resolved;
  const base = { ...childEnv(ctx, (name) => name.startsWith('GIT_') || DROPPED_ENV.has(name)), ...FIXED_ENV };

  /** Runs git; a non-zero exit is returned as a result, for the caller to judge. */
  const spawn = async (args: readonly string[], maxStdout: number, env: Record<string, string>): Promise<Ran> => {
    // --no-pager: whatever pager.<command> says, git never starts one.
    const argv = ['git', '--no-pager', ...args];
    const decision = await ctx.policy.checkExec(argv);
    if (!decision.allowed) return { outcome: denied(decision, `exec git ${args[0] ?? ''}`) };
    let seen = 0;
    // In the run's sandbox: whatever a repository still gets git to run can reach only the grants.
    const run = await spawnConfined(ctx, decision.resolved, argv.slice(1), {
      cwd,
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
    return { result };
  };
  const checked = async (args: readonly string[], maxStdout: number, env: Record<string, string>): Promise<Ran> => {
    const r = await spawn(args, maxStdout, env);
    if ('outcome' in r || r.result.stopped || r.result.exitCode === 0) return r;
    return { outcome: failed(ctx, args, r.result) };
  };

  const fixedEnv = { ...base, ...configEnv(FIXED) };
  const listed = await readConfig(ctx, spawn, fixedEnv);
  if ('outcome' in listed) return listed;
  const where = await checked(PLACE_ARGS, 64 * 1024, fixedEnv);
  if ('outcome' in where) return where;
  const place = parsePlace(lenientUtf8(where.result.stdout), cwd);
  if (place === undefined || where.result.stopped) return { outcome: fail('SKILL_GIT_FAILED', 'git rev-parse gave an answer that is not understood (a path holding a newline?)') };
  const files = configFiles(listed.entries);
  if ('reason' in files) return { outcome: refuse(files.reason) };
  const refused = await checkPlace(ctx, place, files.files);
  if (refused !== undefined) return { outcome: refused };
  const neutral = neutralise(listed.entries);
  if (!neutral.ok) return { outcome: refuse(neutral.reason) };
  const env = { ...base, ...configEnv(neutral.overrides) };
  return { git: { run: (args, maxStdout) => checked(args, maxStdout, env) } };
}

type Spawn = (args: readonly string[], maxStdout: number, env: Record<string, string>) => Promise<Ran>;

/**
 * The whole configuration git will use: local, worktree and every included file, as bytes. A
 * listing past CONFIG_MAX, one git cannot produce (an unreadable include, a line git cannot
 * parse) or one that shows git did not take the overrides (git older than 2.31) is refused: a
 * program named in the part not seen would run.
 */
async function readConfig(ctx: BuiltinContext, spawn: Spawn, env: Record<string, string>): Promise<{ entries: ConfigEntry[] } | { outcome: BuiltinOutcome }> {
  const r = await spawn(['config', '--list', '--show-scope', '--show-origin', '--null'], CONFIG_MAX, env);
  if ('outcome' in r) return r;
  const { result } = r;
  if (result.stopped) return { outcome: refuse(`the repository's configuration lists more than ${CONFIG_MAX} bytes`) };
  const entries = result.exitCode === 0 ? parseListing(result.stdout) : undefined;
  if (entries !== undefined && tookOverrides(entries)) return { entries };
  if (result.exitCode !== 0 && /not a git repository/i.test(lenientUtf8(result.stderr))) return { outcome: failed(ctx, ['config'], result) };
  const version = await spawn(['version'], 256, env);
  if ('outcome' in version) return version;
  const v = lenientUtf8(version.result.stdout).trim();
  if (olderThan231(v)) {
    const why = 'git 2.31 or later is needed to pass overrides that neutralise the programs a repository names (GIT_CONFIG_COUNT)';
    return { outcome: fail('SKILL_GIT_FAILED', `${v || 'this git'} is too old: ${why}`) };
  }
  if (result.exitCode !== 0) return { outcome: refuse(`git cannot read the repository's configuration: ${firstLine(result)}`) };
  return { outcome: refuse('git did not take the overrides that neutralise the configuration') };
}
