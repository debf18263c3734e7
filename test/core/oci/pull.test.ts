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
import { PDF_NOTES_DIR } from '../../helpers/skill-md.js';

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

/** The files of a folder, read as a layer's entries. */
async function entriesOf(dir: string, names?: readonly string[]): Promise<RawEntry[]> {
  const files: RawEntry[] = [];
  for (const name of names ?? (await readdir(dir)).sort()) files.push({ name, data: await readFile(join(dir, name)) });
  return files;
}

/** The artifact whose layer is `layer`, its config naming the skill the layer holds. */
async function artifactOf(dir: string, layer: Buffer, kind: 'bundle' | 'agent-skill', title: string): Promise<ReturnType<typeof buildArtifact>> {
  const file = join(dir, `${sha256(layer).slice(7, 19)}.tgz`);
  await writeFile(file, layer);
  const identity = (await checkSkillArchive(file, 'layer')).identity;
  assert.ok(identity !== undefined);
  return buildArtifact({ kind, id: identity.skill_id, version: identity.skill_version, manifest_digest: identity.manifest_digest, content_digest: identity.content_digest }, layer, title);
}

describe('pullSkill from the cache', () => {
  it('refuses a cached layer swapped after it was hashed, and places nothing', async () => {
    const dir = tempDir('skillctl-pull-swap-');
    const files = await entriesOf(BUNDLE);
    const layer = tgz(files);
    const smuggling = tgz([...files, { name: 'node_modules/evil.js', data: 'process.exit(7)\n' }]);
    // The config names the skill the layer holds; the smuggling layer holds the same identity.
    const built = await artifactOf(dir, layer, 'bundle', 'fs.read_text-0.1.0.tgz');
    await writeFile(join(dir, 'smuggling.tgz'), smuggling);
    assert.deepEqual((await checkSkillArchive(join(dir, 'smuggling.tgz'), 'smuggling')).identity, (await checkSkillArchive(join(dir, `${sha256(layer).slice(7, 19)}.tgz`), 'layer')).identity, 'the premise: node_modules/ is outside the digests');

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

describe('pullSkill: pulls of one skill into one new folder at once', () => {
  // The destination is looked at, then the scratch folder renamed onto it: a pull whose rename
  // falls after another's rename found the name taken (ENOTEMPTY) and ended as INTERNAL, "a bug
  // in skillctl" (until the stop of 2026-12-01). Pulls run in one process interleave at every
  // await, so all of these look before any renames.
  it('each one either wrote the skill or found it there unchanged; the folder holds it once', async () => {
    const dir = tempDir('skillctl-pull-race-');
    const files = await entriesOf(BUNDLE);
    const layer = tgz(files);
    const built = await artifactOf(dir, layer, 'bundle', 'fs.read_text-0.1.0.tgz');
    const cache = new BlobCache(join(dir, 'cache'));
    for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
    const out = join(dir, 'out');
    const ref = parseOciReference(`oci://127.0.0.1:1/skills/fs.read_text@${built.digest}`);
    const results = await Promise.all(Array.from({ length: 6 }, () => pullSkill({ ref, transport: { credentials: NO_CREDENTIALS }, cache, root: dir, outDir: out })));
    const outcomes = results.map((r) => r.outcome).sort();
    assert.deepEqual(outcomes, ['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'written']);
    assert.deepEqual((await readdir(out)).sort(), ['fs.read_text']);
    assert.deepEqual((await readdir(join(out, 'fs.read_text'))).sort(), files.map((f) => f.name));
  });

  it('one of two pulls of different content under one name writes; the other is OUTPUT_EXISTS, and what was written stays', async () => {
    const dir = tempDir('skillctl-pull-race-other-');
    // A SKILL.md folder: its identity is what it holds, so a second build is another file more.
    const files = await entriesOf(PDF_NOTES_DIR, ['SKILL.md', 'references/GUIDE.md', 'scripts/extract.py']);
    const cache = new BlobCache(join(dir, 'cache'));
    const refs = [];
    for (const layer of [tgz(files), tgz([...files, { name: 'notes.txt', data: 'another build\n' }])]) {
      const built = await artifactOf(dir, layer, 'agent-skill', 'pdf-notes.tgz');
      for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
      refs.push(parseOciReference(`oci://127.0.0.1:1/skills/pdf-notes@${built.digest}`));
    }
    const out = join(dir, 'out');
    const results = await Promise.allSettled(refs.map((ref) => pullSkill({ ref, transport: { credentials: NO_CREDENTIALS }, cache, root: dir, outDir: out })));
    const written = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.deepEqual(written.map((r) => r.value.outcome), ['written']);
    assert.equal(refused.length, 1);
    assert.equal((refused[0]?.reason as { code?: string }).code, 'OUTPUT_EXISTS');
    assert.match(String((refused[0]?.reason as Error).message), /pdf-notes (was written by another command while this pull ran, and holds|exists and holds) other content$/);
    assert.deepEqual((await readdir(out)).sort(), ['pdf-notes']);
  });
});
