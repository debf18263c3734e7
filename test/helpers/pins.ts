/** Pinned projects built in-process with the core API, for verify and tamper tests. */
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { FileLockOptions } from '../../src/core/fs/index.js';
import { collectTargets, openLock, pin, type PinOutcome, type SkillctlLockContext } from '../../src/core/pins/index.js';
import { keygen, readSecretKey, type SecretKey } from '../../src/core/sign/index.js';
import { makeProject } from './project.js';

export function testFileLock(): FileLockOptions {
  return {
    now: () => Date.now(),
    pid: process.pid,
    hostname: hostname(),
    isAlive: () => true,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    timeoutMs: 10_000,
    staleMs: 60_000,
  };
}

export interface PinnedProject {
  readonly root: string;
  readonly lockPath: string;
  readonly keys: Readonly<Record<string, SecretKey>>;
  readonly outcome: PinOutcome;
}

/** Creates keys for `signers` (in pins/public-keys.json). */
export async function makeKeys(root: string, signers: readonly string[]): Promise<Record<string, SecretKey>> {
  const keys: Record<string, SecretKey> = {};
  for (const signer of signers) {
    const secretPath = join(root, '.skillctl', 'keys', `${signer}.key`);
    const r = await keygen({ signer, secretPath, secretLabel: secretPath, keysPath: join(root, 'pins', 'public-keys.json'), keysLabel: 'pins/public-keys.json', force: false });
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    const k = await readSecretKey(secretPath);
    keys[signer] = k.key as SecretKey;
  }
  return keys;
}

/** Pins `paths` (default: --all) of `root`, signing with `sign`. */
export async function pinPaths(
  root: string,
  opts: { paths?: string[]; sign?: Record<string, SecretKey>; minSigners?: number; replace?: boolean; trustKeys?: boolean } = {},
): Promise<PinOutcome> {
  const all = opts.paths === undefined;
  const targets = await collectTargets(root, root, opts.paths ?? [], all);
  if (targets.diagnostics.length > 0) throw new Error(JSON.stringify(targets.diagnostics));
  return pin({
    root,
    lockPath: join(root, 'pins', 'skills.lock.json'),
    lockFile: 'pins/skills.lock.json',
    targets: targets.targets,
    signing: Object.entries(opts.sign ?? {}).map(([signer, key]) => ({ signer, key })),
    replace: opts.replace === true,
    trustKeys: opts.trustKeys === true,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    prune: all,
    fileLock: testFileLock(),
  });
}

/** The fixture project, pinned, its bundle signed by `signers` with min_signers = signers.length. */
export async function pinnedProject(signers: readonly string[] = ['alice', 'bob']): Promise<PinnedProject> {
  const root = await makeProject();
  const keys = await makeKeys(root, signers);
  const outcome = await pinPaths(root, { sign: keys, minSigners: signers.length });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.diagnostics));
  return { root, lockPath: join(root, 'pins', 'skills.lock.json'), keys, outcome };
}

/** Opens the project's lock; fails the test when it cannot be opened. */
export async function open(root: string): Promise<{ context: SkillctlLockContext; diagnostics: readonly Diagnostic[] }> {
  const opened = await openLock(join(root, 'pins', 'skills.lock.json'), { label: 'pins/skills.lock.json' });
  if (opened.context === undefined || opened.context.format !== 'skillctl') throw new Error(JSON.stringify(opened.diagnostics));
  return { context: opened.context, diagnostics: opened.diagnostics };
}
