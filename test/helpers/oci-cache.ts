/** A blob cache filled by hand, for the core tests of what reads it (test/core/oci/). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sha256 } from '../../src/core/digest/index.js';
import { parseOciReference, type BlobCache, type SkillConfig } from '../../src/core/oci/index.js';

export const DEMO_REF = parseOciReference('oci://127.0.0.1:5000/skills/demo');
export const DEMO_CONFIG: SkillConfig = { kind: 'bundle', id: 'demo', version: '1.0.0', manifest_digest: sha256(Buffer.from('m')), content_digest: sha256(Buffer.from('c')) };

/** Writes `bytes` where the cache keeps the blob of their digest; returns that path. */
export async function putBlob(cache: BlobCache, bytes: Buffer): Promise<string> {
  const path = cache.pathOf(sha256(bytes));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return path;
}
