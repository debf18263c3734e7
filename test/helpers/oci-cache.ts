/** A blob cache filled by hand, for the tests of what reads it (test/core/oci/, and a pull the cache answers). */
import { cpSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '../../src/core/digest/index.js';
import { BlobCache, buildArtifact, parseOciReference, type SkillConfig } from '../../src/core/oci/index.js';
import { packFolder } from '../../src/core/pack/index.js';
import { checkSkillArchive } from '../../src/core/skill-gate/index.js';

export const DEMO_REF = parseOciReference('oci://127.0.0.1:5000/skills/demo');
export const DEMO_CONFIG: SkillConfig = { kind: 'bundle', id: 'demo', version: '1.0.0', manifest_digest: sha256(Buffer.from('m')), content_digest: sha256(Buffer.from('c')) };

/** Writes `bytes` where the cache keeps the blob of their digest; returns that path. */
export async function putBlob(cache: BlobCache, bytes: Buffer): Promise<string> {
  const path = cache.pathOf(sha256(bytes));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}

/**
 * The skill folder `bundle` pushed nowhere: its artifact's blobs put in the blob cache under
 * `cacheHome` (XDG_CACHE_HOME), and a copy of it in `outDir`, so that a pull of the returned
 * digest (any registry host: it is never asked) with `--out outDir` is answered from the cache.
 */
export async function cachedInPlace(bundle: string, work: string, cacheHome: string, outDir: string): Promise<string> {
  const packed = await packFolder(bundle, join(work, 'packed'));
  if (packed.archive === undefined) throw new Error(`${bundle} did not pack`);
  const identity = (await checkSkillArchive(packed.archive, 'packed')).identity;
  if (identity === undefined) throw new Error(`${bundle} is not a valid skill`);
  const layer = readFileSync(packed.archive);
  const built = buildArtifact({ kind: 'bundle', id: identity.skill_id, version: identity.skill_version, manifest_digest: identity.manifest_digest, content_digest: identity.content_digest }, layer, `${identity.skill_id}.tgz`);
  const cache = new BlobCache(join(cacheHome, 'skillctl'));
  for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
  cpSync(bundle, join(outDir, identity.skill_id), { recursive: true });
  return built.digest;
}
