/**
 * The blob cache as a pull by digest reads it: a manifest or config is read once and hashed as
 * read (what is parsed is what was hashed), never through a link and never past its bound; a
 * file that does not hash to its name is removed. cachedHead needs the manifest and config only.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256 } from '../../../src/core/digest/index.js';
import { BlobCache, buildArtifact, cachedArtifact, cachedHead, parseOciReference, type SkillConfig } from '../../../src/core/oci/index.js';
import { tempDir } from '../../helpers/tmp.js';

const REF = parseOciReference('oci://127.0.0.1:5000/skills/demo');
const CONFIG: SkillConfig = { kind: 'bundle', id: 'demo', version: '1.0.0', manifest_digest: sha256(Buffer.from('m')), content_digest: sha256(Buffer.from('c')) };

async function put(cache: BlobCache, bytes: Buffer): Promise<string> {
  const path = cache.pathOf(sha256(bytes));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}

describe('BlobCache.verifiedBytes', () => {
  it('returns the bytes that hashed to the digest', async () => {
    const cache = new BlobCache(tempDir());
    const bytes = Buffer.from('{"a":1}');
    await put(cache, bytes);
    assert.deepEqual(await cache.verifiedBytes(sha256(bytes), 1024), { state: 'ok', bytes });
    assert.deepEqual(await cache.verifiedBytes(sha256(bytes), 1024, bytes.length + 1), { state: 'corrupt' }, 'a size other than the descriptor says');
  });

  it('says missing for a digest not cached', async () => {
    const cache = new BlobCache(tempDir());
    assert.deepEqual(await cache.verifiedBytes(sha256(Buffer.from('x')), 1024), { state: 'missing' });
  });

  it('removes a file that no longer hashes to its name, one past the bound, or a link', async () => {
    const root = tempDir();
    const cache = new BlobCache(root);
    const edited = Buffer.from('original');
    const editedPath = await put(cache, edited);
    await writeFile(editedPath, 'edited!!');
    assert.deepEqual(await cache.verifiedBytes(sha256(edited), 1024), { state: 'corrupt' });
    assert.equal(existsSync(editedPath), false);

    const big = Buffer.alloc(2048, 1);
    const bigPath = await put(cache, big);
    assert.deepEqual(await cache.verifiedBytes(sha256(big), 1024), { state: 'corrupt' });
    assert.equal(existsSync(bigPath), false);

    // A link named after the digest of the file it points to is still not read through.
    const target = join(root, 'elsewhere.json');
    const linked = Buffer.from('{"linked":true}');
    await writeFile(target, linked);
    const linkPath = cache.pathOf(sha256(linked));
    await symlink(target, linkPath);
    assert.deepEqual(await cache.verifiedBytes(sha256(linked), 1024), { state: 'corrupt' });
    assert.equal(existsSync(linkPath), false);
    assert.equal(existsSync(target), true, 'the file the link named is left alone');
  });
});

describe('cachedHead and cachedArtifact', () => {
  it('cachedHead reads the manifest and config without the layer; cachedArtifact needs the layer too', async () => {
    const cache = new BlobCache(tempDir());
    const layer = Buffer.from('not really a tgz');
    const built = buildArtifact(CONFIG, layer, 'demo-1.0.0.tgz');
    await put(cache, built.manifest);
    await put(cache, built.config);
    const head = await cachedHead(cache, REF, built.digest);
    assert.deepEqual(head?.config, CONFIG);
    assert.equal(head?.artifact.layer.digest, sha256(layer));
    assert.equal(await cachedArtifact(cache, REF, built.digest), undefined, 'no layer cached');
    const layerPath = await put(cache, layer);
    assert.equal((await cachedArtifact(cache, REF, built.digest))?.layerPath, layerPath);
  });

  it('a corrupt config is a miss for a pull and OCI_DIGEST_MISMATCH for a run', async () => {
    const cache = new BlobCache(tempDir());
    const built = buildArtifact(CONFIG, Buffer.from('layer'), 'demo-1.0.0.tgz');
    await put(cache, built.manifest);
    const configPath = await put(cache, built.config);
    await writeFile(configPath, '{"kind":"bundle"}');
    assert.equal(await cachedHead(cache, REF, built.digest), undefined);
    await put(cache, built.config);
    await writeFile(configPath, '{"kind":"bundle"}');
    await assert.rejects(cachedHead(cache, REF, built.digest, true), { code: 'OCI_DIGEST_MISMATCH', message: /the cached config of manifest oci:\/\/127\.0\.0\.1:5000\/skills\/demo@sha256:[0-9a-f]{64} no longer hashes to its digest; it was removed/ });
  });
});
