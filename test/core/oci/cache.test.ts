/**
 * The blob cache as a pull by digest reads it: a manifest or config is read once and hashed as
 * read (what is parsed is what was hashed), never through a link and never past its bound; a
 * file that does not hash to its name is removed. cachedHead needs the manifest and config only.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256 } from '../../../src/core/digest/index.js';
import { BlobCache, buildArtifact, cachedArtifact, cachedHead } from '../../../src/core/oci/index.js';
import { DEMO_CONFIG, DEMO_REF, putBlob } from '../../helpers/oci-cache.js';
import { tempDir } from '../../helpers/tmp.js';



describe('BlobCache.verifiedBytes', () => {
  it('returns the bytes that hashed to the digest', async () => {
    const cache = new BlobCache(tempDir());
    const bytes = Buffer.from('{"a":1}');
    await putBlob(cache, bytes);
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
    const editedPath = await putBlob(cache, edited);
    await writeFile(editedPath, 'edited!!');
    assert.deepEqual(await cache.verifiedBytes(sha256(edited), 1024), { state: 'corrupt' });
    assert.equal(existsSync(editedPath), false);

    const big = Buffer.alloc(2048, 1);
    const bigPath = await putBlob(cache, big);
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
    const built = buildArtifact(DEMO_CONFIG, layer, 'demo-1.0.0.tgz');
    await putBlob(cache, built.manifest);
    await putBlob(cache, built.config);
    const head = await cachedHead(cache, DEMO_REF, built.digest);
    assert.deepEqual(head?.config, DEMO_CONFIG);
    assert.equal(head?.artifact.layer.digest, sha256(layer));
    assert.equal(await cachedArtifact(cache, DEMO_REF, built.digest), undefined, 'no layer cached');
    const layerPath = await putBlob(cache, layer);
    assert.equal((await cachedArtifact(cache, DEMO_REF, built.digest))?.layerPath, layerPath);
  });

  it('a corrupt config is a miss for a pull and OCI_DIGEST_MISMATCH for a run', async () => {
    const cache = new BlobCache(tempDir());
    const built = buildArtifact(DEMO_CONFIG, Buffer.from('layer'), 'demo-1.0.0.tgz');
    await putBlob(cache, built.manifest);
    const configPath = await putBlob(cache, built.config);
    await writeFile(configPath, '{"kind":"bundle"}');
    assert.equal(await cachedHead(cache, DEMO_REF, built.digest), undefined);
    await putBlob(cache, built.config);
    await writeFile(configPath, '{"kind":"bundle"}');
    await assert.rejects(cachedHead(cache, DEMO_REF, built.digest, true), { code: 'OCI_DIGEST_MISMATCH', message: /the cached config of manifest oci:\/\/127\.0\.0\.1:5000\/skills\/demo@sha256:[0-9a-f]{64} no longer hashes to its digest; it was removed/ });
  });
});
