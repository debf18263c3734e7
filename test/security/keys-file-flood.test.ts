// Threat: a keys file of thousands of valid keys holds verify-pins (the hook, CI) on one core for minutes.
// The keys file is a trust anchor pinned by its sha256, but a pull request (or a cloned
// repository) sets keys_digest to whatever file it commits: verify-pins loads every key of a file
// that hashes to its pin, and each key cost a point decoding and a small-order check in BigInt
// (about 3.6 ms). A 4 MiB file names 75,000 keys: 270 s of CPU before the first skill is looked
// at, in every hook run and CI job, and the same for a provenact bundle's keys file or `pull
// --keys`. A keys file names at most 256 signers: more is KEYS_INVALID before any key is decoded.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skillctlIn } from '../helpers/git-pins.js';
import { pinnedProject } from '../helpers/pins.js';
import { removeDir } from '../helpers/project.js';

interface Doc {
  diagnostics: { code: string; severity: string; file?: string; pointer?: string }[];
}

/** `n` distinct, valid Ed25519 public keys in base64: nothing in them is refused but their number. */
function validKeys(n: number): string[] {
  return Array.from({ length: n }, () => (generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64'));
}

describe('a keys file of thousands of valid keys, pinned by the lock', () => {
  let root: string;
  before(async () => {
    ({ root } = await pinnedProject(['alice', 'bob']));
    const keysPath = join(root, 'pins', 'public-keys.json');
    const keys = JSON.parse(await readFile(keysPath, 'utf8')) as Record<string, string>;
    validKeys(6000).forEach((k, i) => (keys[`mallory.${i}`] = k));
    const bytes = `${JSON.stringify(keys, null, 2)}\n`;
    await writeFile(keysPath, bytes);
    // The lock pins the new file, as a pull request that brings it does.
    const lockPath = join(root, 'pins', 'skills.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as Record<string, unknown>;
    lock.keys_digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    await writeFile(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  });
  after(async () => removeDir(root));

  it('verify-pins refuses it at once: KEYS_INVALID, exit 1', () => {
    const started = Date.now();
    const r = skillctlIn(root, ['verify-pins', '--json']);
    const took = Date.now() - started;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const errors = (JSON.parse(r.stdout) as Doc).diagnostics.filter((d) => d.severity === 'error');
    assert.ok(
      errors.some((d) => d.code === 'KEYS_INVALID' && d.file === 'pins/public-keys.json' && d.pointer === ''),
      JSON.stringify(errors),
    );
    // Before, 6,000 keys took about 22 s of decoding alone.
    assert.ok(took < 10_000, `verify-pins took ${took} ms`);
  });
});
