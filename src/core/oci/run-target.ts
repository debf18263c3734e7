/**
 * `run oci://…`: the archive a run of a pulled skill reads, from the cache only (a run never
 * fetches). A digest names it; a tag alone is taken only when a lock pins it (`origin.oci`), since
 * a tag can move between the pull and the run. The layer's bytes are read once, hashed, and
 * written to a private scratch file that the run then reads, checking it against the layer's
 * digest: what runs is what was verified.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_ARCHIVE_BOUNDS, inflateLimit } from '../archive/index.js';
import { isSha256Digest, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import type { SkillPin } from '../pins/index.js';
import type { BlobCache } from './cache.js';
import { cachedHead } from './fetch-artifact.js';
import { formatOciReference, type OciReference } from './reference.js';

/** The file name of the scratch archive, whatever the skill: `.tgz`, which the run reads as a gzipped tar. */
const RUN_ARCHIVE_NAME = 'skill.tgz';

/**
 * The digest a run of `ref` takes: its own, or the one a pin's origin records for its tag, with
 * that pin, which what runs must then match (the run checks the unpacked skill against it).
 */
export function runDigest(ref: OciReference, pins: readonly SkillPin[]): { readonly digest: Sha256Digest; readonly pin?: SkillPin } {
  if (ref.digest !== undefined && isSha256Digest(ref.digest)) return { digest: ref.digest };
  const { digest: _none, ...named } = ref;
  void _none;
  const reference = formatOciReference(named);
  const pin = pins.find((p) => p.origin?.oci?.reference === reference);
  if (pin?.origin?.oci === undefined) {
    throw new SkillctlError('OCI_TAG_UNPINNED', `${reference}: a run takes a digest, or a tag a lock pins; no pin of this lock has this origin`, {
      hint: `skillctl pin ${reference} records it, or run ${reference.replace(/:[^:/]+$/, '')}@sha256:<digest>`,
    });
  }
  return { digest: pin.origin.oci.digest, pin };
}

/** The scratch copy of a cached layer that a run reads. */
export interface RunArchive {
  /** `<scratchDir>/skill.tgz`. */
  readonly path: string;
  /** The directory made for it (mkdtemp): what the caller removes when the run is over, and nothing else. */
  readonly scratchDir: string;
  /** The layer's digest, which the run checks the file against as it reads it. */
  readonly archiveDigest: Sha256Digest;
}

/**
 * Writes the verified layer of `digest` to `<scratch>/skill.tgz`; returns that path, the scratch
 * directory, and the layer's digest, which the run checks the file against as it reads it
 * (resolve.ts `archiveDigest`): a process of the user's that writes the temporary directory could
 * otherwise swap the file in between.
 */
export async function cachedRunArchive(cache: BlobCache, ref: OciReference, digest: Sha256Digest, scratchParent: string): Promise<RunArchive> {
  const reference = formatOciReference({ ...ref, digest });
  const hit = await cachedHead(cache, ref, digest, true);
  if (hit === undefined) throw new SkillctlError('OCI_NOT_CACHED', `${reference} is not in the cache (${cache.root})`, { hint: `skillctl pull ${reference}` });
  // A run reads its archive whole, within run ARCHIVE's bound, where pull streams layers up to
  // 8 GiB: a larger layer is refused by its size before a byte of it is read.
  const limit = inflateLimit(DEFAULT_ARCHIVE_BOUNDS);
  const { layer } = hit.artifact;
  if (layer.size > limit) {
    throw new SkillctlError('ARCHIVE_TOO_LARGE', `${reference}: its layer is ${layer.size} bytes; a run reads archives of at most ${limit}`, { hint: `run the folder skillctl pull ${reference} writes` });
  }
  // Read once (never through a link, never blocking on a FIFO), hashed as read.
  const cached = await cache.verifiedBytes(layer.digest, limit, layer.size);
  if (cached.state !== 'ok') {
    if (cached.state === 'missing') throw new SkillctlError('OCI_NOT_CACHED', `the layer of ${reference} is not in the cache (${cache.root})`, { hint: `skillctl pull ${reference}` });
    throw new SkillctlError('OCI_DIGEST_MISMATCH', `the cached layer of ${reference} no longer hashes to its digest; it was removed`, { hint: 'pull it again' });
  }
  const { bytes } = cached;
  const scratchDir = await mkdtemp(join(scratchParent, 'skillctl-run-oci-'));
  // A constant name: nothing the registry sent (config, manifest, annotations) is part of a path.
  // The run names the skill from the manifest inside the archive, not from this file's name.
  const path = join(scratchDir, RUN_ARCHIVE_NAME);
  try {
    const fh = await open(path, 'wx', 0o600);
    try {
      await fh.writeFile(bytes);
    } finally {
      await fh.close();
    }
  } catch (err) {
    await rm(scratchDir, { recursive: true, force: true });
    throw err;
  }
  return { path, scratchDir, archiveDigest: layer.digest as Sha256Digest };
}
