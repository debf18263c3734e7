/** Git repositories for the git skills' tests, built with the git CLI, isolated from any user config. */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** git isolated from the user's configuration, with a fixed identity and dates. */
export const GIT_TEST_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_TEST_ENV, encoding: 'utf8' });
}

/**
 * The seed's example state (seed 002, git.status): on feature/x, one commit ahead of main;
 * a.txt staged, b.txt changed (by `unstaged`, then `more`), c.txt new. Returns HEAD.
 */
export async function seedRepo(dir: string, more = ''): Promise<string> {
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(join(dir, 'a.txt'), 'a\n');
  await writeFile(join(dir, 'b.txt'), 'b\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'feature/x');
  git(dir, 'branch', '-q', '--set-upstream-to=main');
  await writeFile(join(dir, 'd.txt'), 'd\n');
  git(dir, 'add', 'd.txt');
  git(dir, 'commit', '-q', '-m', 'feature work');
  await appendFile(join(dir, 'a.txt'), 'staged\n');
  git(dir, 'add', 'a.txt');
  await appendFile(join(dir, 'b.txt'), `unstaged\n${more}`);
  await writeFile(join(dir, 'c.txt'), 'new\n');
  return git(dir, 'rev-parse', 'HEAD').trim();
}
