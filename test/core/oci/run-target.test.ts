/**
 * The archive `run oci://` reads from the cache: whole, so within run ARCHIVE's bound. A layer
 * over it (pull takes layers up to 8 GiB) is refused by the size its manifest gives, before a
 * byte is read; a FIFO put where the layer was is refused, not waited on.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_ARCHIVE_BOUNDS, inflateLimit } from '../../../src/core/archive/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { BlobCache, buildArtifact, cachedRunArchive, type SkillConfig } from '../../../src/core/oci/index.js';
import { DEMO_CONFIG, DEMO_REF, putBlob } from '../../helpers/oci-cache.js';
import { tempDir } from '../../helpers/tmp.js';



describe('cachedRunArchive', () => {
  it('refuses a layer over the run archive bound by its size, reading nothing and making no scratch folder', async () => {
    const dir = tempDir();
    const cache = new BlobCache(join(dir, 'cache'));
    const built = buildArtifact(DEMO_CONFIG, { digest: sha256(Buffer.from('never read')), size: 600 * 1024 * 1024 }, 'demo-1.0.0.tgz');
    await putBlob(cache, built.manifest);
    await putBlob(cache, built.config);
    const scratch = join(dir, 'scratch');
    await mkdir(scratch);
    await assert.rejects(cachedRunArchive(cache, DEMO_REF, built.digest, scratch), {
      code: 'ARCHIVE_TOO_LARGE',
      message: `oci://127.0.0.1:5000/skills/demo@${built.digest}: its layer is 629145600 bytes; a run reads archives of at most ${inflateLimit(DEFAULT_ARCHIVE_BOUNDS)}`,
    });
    assert.deepEqual(await readdir(scratch), []);
  });

  it('refuses a FIFO where the layer was, without waiting on it', async () => {
    const dir = tempDir();
    const cache = new BlobCache(join(dir, 'cache'));
    const layer = Buffer.from('a small layer');
    const built = buildArtifact(DEMO_CONFIG, layer, 'demo-1.0.0.tgz');
    await putBlob(cache, built.manifest);
    await putBlob(cache, built.config);
    const layerPath = cache.pathOf(sha256(layer));
    assert.equal(spawnSync('mkfifo', [layerPath]).status, 0);
    await assert.rejects(cachedRunArchive(cache, DEMO_REF, built.digest, dir), { code: 'OCI_DIGEST_MISMATCH', message: /no longer hashes to its digest; it was removed$/ });
    assert.equal(existsSync(layerPath), false);
  });

  it('writes the layer to skill.tgz in a directory of its own, whatever the config says; that directory is returned to be removed', async () => {
    const dir = tempDir();
    const cache = new BlobCache(join(dir, 'cache'));
    const layer = Buffer.from('a small layer');
    // Verified configs hold only a skill id and a semantic version; the name is constant anyway.
    const config: SkillConfig = { ...DEMO_CONFIG, id: 'pdf-notes', version: '1.2.3-rc.1+build.7' };
    const built = buildArtifact(config, layer, 'pdf-notes.tgz');
    for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
    const scratch = join(dir, 'scratch');
    await mkdir(scratch);
    const archive = await cachedRunArchive(cache, DEMO_REF, built.digest, scratch);
    assert.equal(archive.path, join(archive.scratchDir, 'skill.tgz'));
    assert.equal(dirname(archive.scratchDir), scratch);
    assert.deepEqual(await readdir(scratch), [archive.scratchDir.slice(scratch.length + 1)]);
    assert.deepEqual(await readdir(archive.scratchDir), ['skill.tgz']);
    assert.deepEqual(await readFile(archive.path), layer);
    assert.equal((await stat(archive.path)).mode & 0o777, 0o600);
    assert.equal(archive.archiveDigest, sha256(layer));
  });
});
