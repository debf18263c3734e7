/**
 * The pre-commit framework (https://pre-commit.com) as a user runs it, for the hook tests: this
 * checkout's hooks named in a `.pre-commit-config.yaml` by `repo:` and `rev:`, with a
 * `PRE_COMMIT_HOME` of the test's own. pre-commit is a Debian package .ci/run installs; without it
 * the tests are skipped, except in CI.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git, gitEnv, sh } from './git-pins.js';
import { ROOT } from './paths.js';
import { tempDir } from './project.js';

const HAS_PRE_COMMIT = spawnSync('pre-commit', ['--version'], { env: gitEnv() }).status === 0;
/** The `skip` option of a suite that needs pre-commit. */
export const SKIP = HAS_PRE_COMMIT || process.env.CI === 'true' ? false : 'pre-commit is not installed (apt-get install pre-commit)';
const HOOK_FILES = ['.pre-commit-hooks.yaml', 'scripts/pre-commit-hook.sh'];

/**
 * The hook repository and commit to name in `repo:` and `rev:`: this checkout at HEAD when HEAD
 * holds the hook files as they are on disk (CI, a clean checkout), else a repository made of the
 * files on disk (a checkout with uncommitted changes to them), so what is tested is what is here.
 */
export async function hookRepo(temps: string[]): Promise<{ repo: string; rev: string }> {
  const head = git(ROOT, ['rev-parse', '--verify', '-q', 'HEAD'], false);
  const same = head.code === 0 && HOOK_FILES.every((f) => {
    const staged = git(ROOT, ['ls-tree', 'HEAD', '--', f], false).stdout;
    const blob = git(ROOT, ['hash-object', '--', f], false).stdout.trim();
    const exec = (statSync(join(ROOT, f)).mode & 0o111) !== 0;
    return staged.startsWith(exec ? '100755' : '100644') && staged.includes(` ${blob}\t`);
  });
  if (same) return { repo: ROOT.replace(/\/$/, ''), rev: head.stdout.trim() };
  const dir = await tempDir('skillctl-hook-repo-');
  temps.push(dir);
  await mkdir(join(dir, 'scripts'));
  for (const f of HOOK_FILES) await copyFile(join(ROOT, f), join(dir, f));
  await chmod(join(dir, 'scripts', 'pre-commit-hook.sh'), 0o755);
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'hooks']);
  return { repo: dir, rev: git(dir, ['rev-parse', 'HEAD']).stdout.trim() };
}

/** A `.pre-commit-config.yaml` naming `hooks` of `repo` at `rev`. */
export function config(repo: string, rev: string, hooks: readonly string[]): string {
  return `minimum_pre_commit_version: 3.0.0\nrepos:\n  - repo: ${repo}\n    rev: ${rev}\n    hooks:\n${hooks.map((h) => `      - id: ${h}\n`).join('')}`;
}

/**
 * Writes the config naming `hooks` into `root` and stages it (pre-commit refuses to run with an
 * unstaged config); returns the environment that gives pre-commit a home of the test's own.
 */
export async function useHooks(root: string, hooks: readonly string[], temps: string[]): Promise<Record<string, string>> {
  const { repo, rev } = await hookRepo(temps);
  const home = await tempDir('skillctl-pre-commit-home-');
  temps.push(home);
  await writeFile(join(root, '.pre-commit-config.yaml'), config(repo, rev, hooks));
  git(root, ['add', '.pre-commit-config.yaml']);
  return { PRE_COMMIT_HOME: home };
}

/**
 * Adds a bare repository as `origin` of `root` and pushes `main` to it, through the pre-push
 * hook if installed: a push from the root commit, which has no base. Returns the remote's path.
 */
export async function pushedToRemote(root: string, env: Record<string, string>, temps: string[]): Promise<string> {
  const remote = await tempDir('skillctl-remote-');
  temps.push(remote);
  git(remote, ['init', '-q', '--bare', '-b', 'main']);
  git(root, ['remote', 'add', 'origin', remote]);
  const first = sh(root, 'git', ['push', '-q', 'origin', 'main'], { env });
  if (first.code !== 0) throw new Error(`the first push failed (${first.code}): ${first.stdout}${first.stderr}`);
  return remote;
}
