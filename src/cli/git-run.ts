/**
 * The user's git, run by the CLI: for `verify-pins --staged` and `--rev` (openGit) with the hardening the built-in git skills use
 * (src/skills/lib/git.ts): the repository is input (DESIGN.md, "Arguments and repositories are
 * input"), and its configuration can name programs git would run: clean/smudge/process filters,
 * textconv, fsmonitor, hooks, pagers, credential helpers, a partial clone's remote commands. The
 * configuration is read whole first, and every key in it that names a program is overridden
 * (src/skills/lib/git-config.ts), through the environment, never `-c`. Only plumbing that reads
 * is used (rev-parse, ls-files, ls-tree, cat-file without --filters or --textconv; check-attr and
 * update-index in a scratch git directory outside the repository), never a shell.
 *
 * Unlike the skills, the user's global and system configuration are read: this is the user's own
 * git, run from their hook, and `safe.directory` (honoured only there) must keep working for a
 * checkout another user owns, as in CI containers. Whatever those files name is neutralised too.
 * A run lists the same configuration through `runWith` to learn what it names
 * (git-named-paths.ts): a listing starts none of it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SkillctlError } from '../core/errors.js';
import { CONFIG_MAX, configEnv, DROPPED_ENV, FIXED, NEUTRAL_ENV, neutralise, olderThan231, parseListing, tookOverrides } from '../skills/lib/git-config.js';

/**
 * Where the repository and the index are: git sets these for its hooks (GIT_INDEX_FILE for a
 * `git commit -a`'s temporary index, the object directories of a push's quarantine); and which
 * configuration files the user chose (all of it is listed and neutralised). Every other GIT_*
 * variable is dropped: GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT, GIT_EXTERNAL_DIFF...
 */
const KEPT = new Set([
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
]);

const STDERR_MAX = 16 * 1024;

export interface GitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** stdout passed `maxStdout` and git was stopped. */
  readonly stopped: boolean;
}

/** What one run changes: variables of its environment (undefined removes one), configuration set over the neutralised one. */
export interface GitRunExtra {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly config?: readonly (readonly [string, string])[];
}

export interface Git {
  /** Runs `git <args>`, feeding `input`; stdout past `maxStdout` stops git. */
  run(args: readonly string[], maxStdout: number, input?: string, extra?: GitRunExtra): Promise<GitResult>;
  /** Starts a long-running `git <args>` (cat-file --batch) with the same environment. */
  start(args: readonly string[]): ChildProcessWithoutNullStreams;
}

export function unreadable(message: string, hint?: string): SkillctlError {
  return new SkillctlError('GIT_TREE_UNREADABLE', message, hint !== undefined ? { hint } : {});
}

/** The first line git wrote to stderr, for messages. */
export function firstLine(r: GitResult): string {
  return r.stderr.trim().split('\n')[0] ?? '';
}

/** The caller's environment for git: the repository's location kept, every other GIT_* and program variable dropped. */
export function baseEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || DROPPED_ENV.has(k) || (k.startsWith('GIT_') && !KEPT.has(k))) continue;
    out[k] = v;
  }
  return { ...out, ...NEUTRAL_ENV };
}

/** Runs `git <args>` (`program`: git by name, or the path a caller found) in `cwd` with exactly `env`; rejects (GIT_TREE_UNREADABLE) when git cannot be started. */
export function runWith(cwd: string, env: Record<string, string>, args: readonly string[], maxStdout: number, input?: string, program = 'git'): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, ['--no-pager', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stopped = false;
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      if (stopped) return;
      outBytes += c.length;
      if (outBytes > maxStdout) {
        stopped = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < STDERR_MAX) err += c.toString('utf8');
    });
    child.on('error', (e) => reject(unreadable(`git could not be started: ${(e as NodeJS.ErrnoException).code ?? e.message}`, 'install git, or run verify-pins without --staged or --rev')));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err, stopped }));
    // git may exit before reading all of its input (an unknown revision): not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/**
 * git in `cwd` with every program the configuration names overridden. Refuses (GIT_TREE_UNREADABLE)
 * a git older than 2.31, which ignores the overrides, and a configuration it cannot read whole.
 */
export async function openGit(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<Git> {
  const base = baseEnv(env);
  const listing = await runWith(cwd, { ...base, ...configEnv(FIXED) }, ['config', '--list', '--show-scope', '--show-origin', '--null'], CONFIG_MAX);
  const entries = listing.code === 0 && !listing.stopped ? parseListing(listing.stdout) : undefined;
  if (entries === undefined || !tookOverrides(entries)) {
    const version = await runWith(cwd, base, ['version'], 256);
    const v = version.stdout.toString('utf8').trim();
    if (olderThan231(v)) throw unreadable(`${v || 'this git'} is too old: git 2.31 or later is needed to neutralise the programs a repository's configuration names`);
    throw unreadable(`git cannot read the configuration whole: ${listing.stopped ? `it lists more than ${CONFIG_MAX} bytes` : firstLine(listing) || 'overrides not taken'}`);
  }
  const neutral = neutralise(entries);
  if (!neutral.ok) throw unreadable(`the git configuration cannot be neutralised: ${neutral.reason}`);
  const full = { ...base, ...configEnv(neutral.overrides) };
  const envFor = (extra: GitRunExtra): Record<string, string> => {
    const merged = { ...base, ...configEnv([...neutral.overrides, ...(extra.config ?? [])]), ...extra.env };
    return Object.fromEntries(Object.entries(merged).filter((kv): kv is [string, string] => kv[1] !== undefined));
  };
  return {
    run: (args, maxStdout, input, extra) => runWith(cwd, extra === undefined ? full : envFor(extra), args, maxStdout, input),
    start: (args) => spawn('git', ['--no-pager', ...args], { cwd, env: full, stdio: ['pipe', 'pipe', 'pipe'] }),
  };
}
