/**
 * Pinned projects in real git repositories, for the hook tests: git run with the user's
 * configuration left out (as test/helpers/git-repo.ts runs it), skillctl "installed" in the
 * project as npm would link it (node_modules/.bin/skillctl), and the hooks exactly as
 * docs/hooks.md shows them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GIT_TEST_ENV } from './git-repo.js';
import { pinnedProject } from './pins.js';
import { checkCliJson, wantsJson } from './cli-json.js';
import { BIN, ROOT } from './paths.js';

/** PATH with this test's node and the system tools, and no skillctl of the machine's. */
export const TEST_PATH = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;

/** The environment git (and the hooks it runs) get: no user configuration, fixed identity and dates. */
export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...GIT_TEST_ENV, PATH: TEST_PATH, HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
  return { ...env, ...extra };
}

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program in `cwd` with `gitEnv`; never throws on a non-zero exit. */
export function sh(cwd: string, cmd: string, args: readonly string[], opts: { input?: string; env?: Record<string, string> } = {}): Ran {
  const r = spawnSync(cmd, args, { cwd, env: gitEnv(opts.env), input: opts.input ?? '', encoding: 'utf8', timeout: 120_000 });
  // A program that exits without reading its input (a hook that stops early) closes the pipe
  // first: that EPIPE is its choice, not a failure to run it.
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'EPIPE') throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** git in `cwd`; throws with git's output when it fails, unless `check` is false. */
export function git(cwd: string, args: readonly string[], check = true): Ran {
  const r = sh(cwd, 'git', args);
  if (check && r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r;
}

/** skillctl, as the project's installed copy, in `cwd`. */
export function skillctlIn(cwd: string, args: readonly string[], input?: string): Ran {
  const r = sh(cwd, process.execPath, [BIN, ...args], input !== undefined ? { input } : {});
  if (wantsJson(args)) checkCliJson(args, r.stdout);
  return r;
}

/** Makes `node_modules/.bin/skillctl` in `root` lead to this checkout's bin, as `npm install -D` would. */
export async function installSkillctl(root: string): Promise<void> {
  await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
  await symlink(BIN, join(root, 'node_modules', '.bin', 'skillctl'));
}

/** The hook docs/hooks.md shows, by its first comment line (`skillctl pre-commit hook`). */
export function docHook(name: 'pre-commit' | 'pre-push'): string {
  const doc = readFileSync(join(ROOT, 'docs', 'hooks.md'), 'utf8');
  const start = doc.indexOf(`\`\`\`sh\n#!/bin/sh\n# skillctl ${name} hook`);
  if (start === -1) throw new Error(`docs/hooks.md shows no ${name} hook`);
  const body = doc.slice(start + '```sh\n'.length);
  return body.slice(0, body.indexOf('```\n'));
}

/** Writes the documented hook `name` into the repository's hooks directory. */
export async function installDocHook(root: string, name: 'pre-commit' | 'pre-push'): Promise<void> {
  const path = join(root, '.git', 'hooks', name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, docHook(name));
  await chmod(path, 0o755);
}

export interface PinnedRepo {
  readonly root: string;
  /** HEAD after the first commit: the pinned project. */
  readonly base: string;
}

/**
 * The fixture project pinned (its bundle signed by alice, min_signers 1, a behaviour pack),
 * committed on `main`, with skillctl installed and the keys' secret halves git-ignored.
 */
export async function pinnedRepo(opts: { install?: boolean } = {}): Promise<PinnedRepo> {
  const p = await pinnedProject(['alice']);
  await writeFile(join(p.root, '.gitignore'), '.skillctl/\nnode_modules/\n');
  if (opts.install !== false) await installSkillctl(p.root);
  git(p.root, ['init', '-q', '-b', 'main']);
  git(p.root, ['add', '.']);
  git(p.root, ['commit', '-q', '-m', 'pinned skills']);
  return { root: p.root, base: git(p.root, ['rev-parse', 'HEAD']).stdout.trim() };
}

export const RUN_JS = join('manifests', 'hello', 'run.js');

/** The codes of the error lines in a hook's or verify-pins' human output, sorted. */
export const errorCodes = (out: string): string[] => [...out.matchAll(/\berror +([A-Z][A-Z0-9_]+)\b/g)].map((m) => m[1] as string).sort();

/** What verify-pins finds in selfVouching's commit against the base it changes: two digests, the keys file, and alice dropped from the pin's signers. */
export const SELF_VOUCHED = ['PIN_IMMUTABLE', 'PIN_IMMUTABLE', 'PIN_TRUST_CHANGED', 'PIN_TRUST_CHANGED'];

/** Commits what a pull request vouching for itself does: a tampered skill re-pinned at its version, signed by a key it adds. */
export async function selfVouching(root: string): Promise<void> {
  await writeFile(join(root, RUN_JS), 'evil()\n');
  assert.equal(skillctlIn(root, ['validate', '--fix', 'manifests/hello']).code, 0);
  assert.equal(skillctlIn(root, ['keygen', '--signer', 'mallory']).code, 0);
  const pin = skillctlIn(root, ['pin', '--replace', '--trust-keys', '--sign', '.skillctl/keys/mallory.key', '--signer', 'mallory', 'manifests/hello']);
  assert.equal(pin.code, 0, pin.stdout + pin.stderr);
  git(root, ['add', '.']);
  git(root, ['commit', '-q', '--no-verify', '-m', 'the pull request']);
  // The hole the base closes: the commit alone verifies.
  assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD']).code, 0);
}
