/**
 * The archive `run oci://` reads from the cache: whole, so within run ARCHIVE's bound. A layer
 * over it (pull takes layers up to 8 GiB) is refused by the size its manifest gives, before a
 * byte is read; a FIFO put where the layer was is refused, not waited on.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_ARCHIVE_BOUNDS, inflateLimit } from '../../../src/core/archive/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { BlobCache, buildArtifact, cachedRunArchive, parseOciReference, type SkillConfig } from '../../../src/core/oci/index.js';
import { tempDir } from '../../helpers/tmp.js';

const REF = parseOciReference('oci://127.0.0.1:5000/skills/demo');
const CONFIG: SkillConfig = { kind: 'bundle', id: 'demo', version: '1.0.0', manifest_digest: sha256(Buffer.from('m')), content_digest: sha256(Buffer.from('c')) };

async function put(cache: BlobCache, bytes: Buffer): Promise<void> {
  const path = cache.pathOf(sha256(bytes));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
}

describe('cachedRunArchive', () => {
  it('refuses a layer over the run archive bound by its size, reading nothing and making no scratch folder', async () => {
    const dir = tempDir();
    const cache = new BlobCache(join(dir, 'cache'));
    const built = buildArtifact(CONFIG, { digest: sha256(Buffer.from('never read')), size: 600 * 1024 * 1024 }, 'demo-1.0.0.tgz');
    await put(cache, built.manifest);
    await put(cache, built.config);
    const scratch = join(dir, 'scratch');
    await mkdir(scratch);
    await assert.rejects(cachedRunArchive(cache, REF, built.digest, scratch), {
      code: 'ARCHIVE_TOO_LARGE',
      message: `oci://127.0.0.1:5000/skills/demo@${built.digest}: its layer is 629145600 bytes; a run reads archives of at most ${inflateLimit(DEFAULT_ARCHIVE_BOUNDS)}`,
    });
    assert.deepEqual(await readdir(scratch), []);
  });

  it('refuses a FIFO where the layer was, without waiting on it', async () => {
    const dir = tempDir();
    const cache = new BlobCache(join(dir, 'cache'));
    const layer = Buffer.from('a small layer');
    const built = buildArtifact(CONFIG, layer, 'demo-1.0.0.tgz');
    await put(cache, built.manifest);
    await put(cache, built.config);
    const layerPath = cache.pathOf(sha256(layer));
    assert.equal(spawnSync('mkfifo', [layerPath]).status, 0);
    await assert.rejects(cachedRunArchive(cache, REF, built.digest, dir), { code: 'OCI_DIGEST_MISMATCH', message: /no longer hashes to its digest; it was removed$/ });
    assert.equal(existsSync(layerPath), false);
  });
});
