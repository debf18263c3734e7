/** A blob cache filled by hand, for the tests of what reads it (test/core/oci/, and a pull the cache answers). */
import { cpSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '../../src/core/digest/index.js';
import { BlobCache, buildArtifact, parseOciReference, type SkillConfig } from '../../src/core/oci/index.js';
import { skillArtifact } from './skill-artifact.js';

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
  const { layer, config } = await skillArtifact(bundle, join(work, 'packed'));
  const built = buildArtifact(config, layer, `${config.id}.tgz`);
  const cache = new BlobCache(join(cacheHome, 'skillctl'));
  for (const bytes of [built.manifest, built.config, layer]) await putBlob(cache, bytes);
  cpSync(bundle, join(outDir, config.id), { recursive: true });
  return built.digest;
}
