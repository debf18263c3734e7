/**
 * pull oci:// from the cache: the cached layer is hashed when it is looked up and read again to be
 * unpacked. A layer swapped in between (here: right after the lookup) that holds the same skill
 * plus a file the digests leave out (node_modules/) would pass the identity check and be placed
 * with the extra file; what was unpacked must hash to the layer's digest, or nothing is placed.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256, type Sha256Digest } from '../../../src/core/digest/index.js';
import { BlobCache, buildArtifact, NO_CREDENTIALS, parseOciReference, pullSkill } from '../../../src/core/oci/index.js';
import { checkSkillArchive } from '../../../src/core/skill-gate/index.js';
import { ROOT } from '../../helpers/paths.js';
import { tgz, type RawEntry } from '../../helpers/tar.js';
import { putBlob } from '../../helpers/oci-cache.js';
import { tempDir } from '../../helpers/tmp.js';

const BUNDLE = join(ROOT, 'manifests', 'default', 'fs.read_text');

/** A cache whose file for `swapped` is replaced by `by` right after it was verified. */
class SwappingCache extends BlobCache {
  constructor(
    root: string,
    private readonly swapped: Sha256Digest,
    private readonly by: Buffer,
  ) {
    super(root);
  }
  override async verified(digest: Sha256Digest, size?: number): Promise<{ state: 'ok'; path: string } | { state: 'missing' | 'corrupt' }> {
    const found = await super.verified(digest, size);
    if (found.state === 'ok' && digest === this.swapped) await writeFile(found.path, this.by);
    return found;
  }
}


describe('pullSkill from the cache', () => {
  it('refuses a cached layer swapped after it was hashed, and places nothing', async () => {
    const dir = tempDir('skillctl-pull-swap-');
    const files: RawEntry[] = [];
    for (const name of (await readdir(BUNDLE)).sort()) files.push({ name, data: await readFile(join(BUNDLE, name)) });
    const layer = tgz(files);
    const smuggling = tgz([...files, { name: 'node_modules/evil.js', data: 'process.exit(7)\n' }]);
    // The config names the skill the layer holds; the smuggling layer holds the same identity.
    await writeFile(join(dir, 'layer.tgz'), layer);
    await writeFile(join(dir, 'smuggling.tgz'), smuggling);
    const identity = (await checkSkillArchive(join(dir, 'layer.tgz'), 'layer')).identity;
    assert.ok(identity !== undefined);
    assert.deepEqual((await checkSkillArchive(join(dir, 'smuggling.tgz'), 'smuggling')).identity, identity, 'the premise: node_modules/ is outside the digests');
    const built = buildArtifact({ kind: 'bundle', id: identity.skill_id, version: identity.skill_version, manifest_digest: identity.manifest_digest, content_digest: identity.content_digest }, layer, 'fs.read_text-0.1.0.tgz');

    const cache = new SwappingCache(join(dir, 'cache'), sha256(layer), smuggling);
    for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
    const out = join(dir, 'out');
    await assert.rejects(
      pullSkill({ ref: parseOciReference(`oci://127.0.0.1:1/skills/fs.read_text@${built.digest}`), transport: { credentials: NO_CREDENTIALS }, cache, root: dir, outDir: out }),
      { code: 'OCI_DIGEST_MISMATCH', message: new RegExp(`^the cached layer of oci://127\\.0\\.0\\.1:1/skills/fs\\.read_text@${built.digest} changed while it was read \\(hashed to ${sha256(smuggling)}\\)$`) },
    );
    assert.equal(existsSync(out), false, 'nothing placed, and the folder made for it removed');
  });
});
