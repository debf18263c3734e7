/**
 * A skill artifact's manifest, config and layer, verified and in the cache. By digest, a manifest
 * already cached (and still hashing to its name) is used without asking the registry; by tag the
 * registry is always asked, since a tag moves. Blobs come from the cache when they are there and
 * still hash to their digest, and are fetched into it otherwise.
 */
import { open } from 'node:fs/promises';
import { STREAMED_ARCHIVE_CEILING } from '../archive/index.js';
import { isSha256Digest, type Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { MANIFEST_MAX_BYTES, OCI_MANIFEST, SMALL_BLOB_MAX_BYTES, toSkillArtifact, toSkillConfig, type SkillArtifact, type SkillConfig } from './artifact.js';
import type { BlobCache } from './cache.js';
import type { RegistryClient } from './client.js';
import { formatOciReference, manifestRef, type OciReference } from './reference.js';

export interface FetchedArtifact {
  readonly digest: Sha256Digest;
  readonly artifact: SkillArtifact;
  readonly config: SkillConfig;
  /** The layer (the skill's archive) in the cache. */
  readonly layerPath: string;
  /** True when nothing was asked of the registry. */
  readonly fromCache: boolean;
}

/** A cached artifact's manifest and config, verified; its layer not looked at. */
export interface CachedHead {
  readonly digest: Sha256Digest;
  readonly artifact: SkillArtifact;
  readonly config: SkillConfig;
}

/** Throws OCI_DIGEST_MISMATCH for a corrupt cached file when asked to (see cachedArtifact); true when the file is usable. */
function usable(state: 'ok' | 'missing' | 'corrupt', name: string, what: string, refuseCorrupt: boolean): boolean {
  if (state === 'corrupt' && refuseCorrupt) throw new SkillctlError('OCI_DIGEST_MISMATCH', `the cached ${name} of ${what} no longer hashes to its digest; it was removed`, { hint: 'pull it again' });
  return state === 'ok';
}

/**
 * The manifest and config of `digest` from the cache alone, each read once and hashed as read
 * (./cache.ts verifiedBytes); undefined when one is missing. What needs only these (a pull whose
 * folder already holds the skill) never reads the layer.
 */
export async function cachedHead(cache: BlobCache, ref: OciReference, digest: Sha256Digest, refuseCorrupt = false): Promise<CachedHead | undefined> {
  const what = `manifest ${formatOciReference({ ...ref, digest })}`;
  const m = await cache.verifiedBytes(digest, MANIFEST_MAX_BYTES);
  if (m.state !== 'ok') return void usable(m.state, 'manifest', what, refuseCorrupt);
  const artifact = toSkillArtifact(m.bytes, OCI_MANIFEST, what);
  const c = await cache.verifiedBytes(artifact.config.digest, SMALL_BLOB_MAX_BYTES, artifact.config.size);
  if (c.state !== 'ok') return void usable(c.state, 'config', what, refuseCorrupt);
  return { digest, artifact, config: toSkillConfig(c.bytes, `config of ${what}`) };
}

/** The manifest and config of `digest` from the registry, verified; nothing is cached (verify-pins --remote writes nothing). */
export async function remoteHead(client: RegistryClient, ref: OciReference, digest: Sha256Digest): Promise<CachedHead> {
  const manifest = await client.getManifest(digest);
  const what = `manifest ${formatOciReference({ ...ref, digest })}`;
  const artifact = toSkillArtifact(manifest.bytes, manifest.contentType, what);
  return { digest, artifact, config: toSkillConfig(await client.getSmallBlob(artifact.config, SMALL_BLOB_MAX_BYTES), `config of ${what}`) };
}

/**
 * The manifest, config and layer of `digest` from the cache alone; undefined when one is missing.
 * A cached file that no longer hashes to its name is removed; with `refuseCorrupt` that is
 * OCI_DIGEST_MISMATCH (a run must not quietly use something else), else a miss (a pull fetches again).
 */
export async function cachedArtifact(cache: BlobCache, ref: OciReference, digest: Sha256Digest, refuseCorrupt = false): Promise<FetchedArtifact | undefined> {
  const head = await cachedHead(cache, ref, digest, refuseCorrupt);
  return head === undefined ? undefined : withCachedLayer(cache, ref, head, refuseCorrupt);
}

/** `head` with its layer from the cache (hashed again), or undefined when the layer is missing or corrupt (see cachedArtifact). */
export async function withCachedLayer(cache: BlobCache, ref: OciReference, head: CachedHead, refuseCorrupt = false): Promise<FetchedArtifact | undefined> {
  const l = await cache.verified(head.artifact.layer.digest, head.artifact.layer.size);
  if (l.state !== 'ok') return void usable(l.state, 'layer', `manifest ${formatOciReference({ ...ref, digest: head.digest })}`, refuseCorrupt);
  return { ...head, layerPath: l.path, fromCache: true };
}

/**
 * An artifact whose manifest and config verified but whose layer is not in the cache yet: the
 * layer is fetched by `streamLayer`, which hands its pieces to `consume` as they arrive (already
 * counted, hashed and written to the cache's scratch file). `consume` may stop reading early; the
 * rest is read all the same. Only once the whole layer hashed to its digest is it renamed into the
 * cache (then the config, then the manifest) and `consume`'s result returned: a layer that does
 * not match throws its finding, leaves nothing in the cache, and whatever `consume` made from the
 * unverified bytes must be thrown away by the caller.
 */
export interface StreamingArtifact {
  readonly digest: Sha256Digest;
  readonly artifact: SkillArtifact;
  readonly config: SkillConfig;
  readonly fromCache: false;
  streamLayer<T>(consume: (pieces: AsyncIterable<Buffer>) => Promise<T>): Promise<{ readonly result: T; readonly layerPath: string }>;
}

/**
 * The manifest and config of `ref`, verified; the layer from the cache when it is there (a
 * `FetchedArtifact`), else ready to stream (a `StreamingArtifact`).
 */
export async function openArtifact(client: RegistryClient, ref: OciReference, cache: BlobCache): Promise<FetchedArtifact | StreamingArtifact> {
  if (ref.digest !== undefined && isSha256Digest(ref.digest)) {
    const hit = await cachedArtifact(cache, ref, ref.digest);
    if (hit !== undefined) return hit;
  }
  const manifest = await client.getManifest(manifestRef(ref));
  const what = `manifest ${formatOciReference({ ...ref, digest: manifest.digest })}`;
  // Refused by media type before any blob is fetched or anything is cached.
  const artifact = toSkillArtifact(manifest.bytes, manifest.contentType, what);
  // A layer over what the streaming unpacker would accept is refused before a byte of it is fetched.
  const limit = STREAMED_ARCHIVE_CEILING;
  if (artifact.layer.size > limit) throw new SkillctlError('ARCHIVE_TOO_LARGE', `${what}: its layer claims ${artifact.layer.size} bytes; archives are bounded to ${limit}`);
  const configBytes = await client.getSmallBlob(artifact.config, SMALL_BLOB_MAX_BYTES);
  const config = toSkillConfig(configBytes, `config of ${what}`);
  // The manifest last: a cached manifest always has its blobs beside it.
  const storeRest = async (): Promise<void> => {
    await cache.putBytes(configBytes);
    await cache.putBytes(manifest.bytes);
  };
  const cachedLayer = await cache.verified(artifact.layer.digest, artifact.layer.size);
  if (cachedLayer.state === 'ok') {
    await storeRest();
    return { digest: manifest.digest, artifact, config, layerPath: cachedLayer.path, fromCache: false };
  }
  return {
    digest: manifest.digest,
    artifact,
    config,
    fromCache: false,
    streamLayer: async <T>(consume: (pieces: AsyncIterable<Buffer>) => Promise<T>) => {
      let result: T | undefined;
      const layerPath = await cache.store(artifact.layer.digest, async (tmp) => {
        const fh = await open(tmp, 'wx', 0o644);
        try {
          const blob = await client.openBlob(artifact.layer, fh);
          try {
            result = await consume(blob.pieces());
            await blob.drain();
          } catch (err) {
            await blob.cancel();
            throw err;
          }
          blob.verify();
        } finally {
          await fh.close();
        }
      });
      await storeRest();
      return { result: result as T, layerPath };
    },
  };
}

/** `openArtifact` with the layer fetched into the cache (nothing reads it on the way). */
export async function fetchArtifact(client: RegistryClient, ref: OciReference, cache: BlobCache): Promise<FetchedArtifact> {
  const opened = await openArtifact(client, ref, cache);
  if ('layerPath' in opened) return opened;
  const { layerPath } = await opened.streamLayer(() => Promise.resolve(undefined));
  return { digest: opened.digest, artifact: opened.artifact, config: opened.config, layerPath, fromCache: false };
}
