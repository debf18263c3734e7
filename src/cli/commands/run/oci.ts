/**
 * `run oci://…`: the reference turned into the archive a run reads, from the cache only
 * (src/core/oci/run-target.ts). A tag is looked up in the project's lock; the scratch copy of the
 * archive is removed when the process ends.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { cachedRunArchive, parseOciReference, runDigest } from '../../../core/oci/index.js';
import type { Sha256Digest } from '../../../core/digest/index.js';
import { readLockFile, type SkillPin } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { blobCache } from '../../oci-env.js';
import { projectPaths } from '../../project.js';

async function lockPins(ctx: Context): Promise<readonly SkillPin[]> {
  const project = await projectPaths(ctx.io.cwd, undefined);
  try {
    const lock = await readLockFile(project.lockPath, project.lockFile);
    return lock.loaded?.format === 'skillctl' ? lock.loaded.lock.skills : [];
  } catch {
    // No lock: only a digest can name what runs.
    return [];
  }
}

/** The archive to run, and the digest it must hash to as the run reads it. */
export async function ociRunTarget(ctx: Context, target: string): Promise<{ path: string; archiveDigest: Sha256Digest; pin?: SkillPin }> {
  const ref = parseOciReference(target);
  const { digest, pin } = runDigest(ref, ref.digest !== undefined ? [] : await lockPins(ctx));
  const archive = await cachedRunArchive(blobCache(ctx.io), ref, digest, tmpdir());
  // Exactly the directory mkdtemp made, never one derived from the archive's path: a path built
  // from what a registry sent once made this remove any directory the publisher named.
  const { scratchDir } = archive;
  process.once('exit', () => rmSync(scratchDir, { recursive: true, force: true }));
  // A tag: the skill the pin pins, not only the digest its origin records (core/run/resolve.ts archivePin).
  return { path: archive.path, archiveDigest: archive.archiveDigest, ...(pin !== undefined ? { pin } : {}) };
}
