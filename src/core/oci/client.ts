/**
 * The distribution API calls skillctl makes, over one Transport: manifests (GET, HEAD, PUT),
 * blobs (HEAD, streaming GET with the digest and size checked as the bytes arrive; uploads in
 * ./blob-upload.ts) and referrers. Everything the registry sends is untrusted: sizes are bounded
 * before and while reading, digests are computed here and compared, never taken from headers.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { isSkillctlError, SkillctlError } from '../errors.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { BlobDownload } from './blob-download.js';
import { BlobUploads, type StagedUpload, type UploadOutcome } from './blob-upload.js';
import { MANIFEST_MAX_BYTES, OCI_INDEX, OCI_MANIFEST, type Descriptor } from './artifact.js';
import { bodyCut } from './network-error.js';
import type { OciReference } from './reference.js';
import { Transport, type Reply, type TransportOptions } from './transport.js';

export interface FetchedManifest {
  readonly bytes: Buffer;
  readonly digest: Sha256Digest;
  readonly contentType: string | undefined;
}

/** Reads a body into memory, refusing more than `max` bytes as soon as they arrive. */
async function readBounded(reply: Reply, max: number, tooLarge: () => SkillctlError): Promise<Buffer> {
  const declared = Number(reply.response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await reply.response.body.cancel();
    reply.done();
    throw tooLarge();
  }
  const parts: Buffer[] = [];
  let total = 0;
  const body = reply.response.body;
  try {
    for (let value = await body.read(); value !== undefined; value = await body.read()) {
      reply.touch();
      total += value.length;
      if (total > max) {
        await body.cancel();
        throw tooLarge();
      }
      parts.push(value);
    }
  } catch (err) {
    throw bodyCut(err, new URL(reply.url).host, `${total} bytes`);
  } finally {
    reply.done();
  }
  return Buffer.concat(parts);
}

export class RegistryClient {
  readonly ref: OciReference;
  private readonly http: Transport;
  private readonly uploads: BlobUploads;

  constructor(ref: OciReference, opts: TransportOptions) {
    this.ref = ref;
    this.http = new Transport(ref.registry, ref.hostname, opts);
    this.uploads = new BlobUploads(this.http, ref.registry, ref.repository, (digest) => this.hasBlob(digest));
  }

  private path(kind: 'manifests' | 'blobs' | 'referrers', name: string): string {
    return `/v2/${this.ref.repository}/${kind}/${name}`;
  }

  private name(ref: string): string {
    return `${this.ref.repository}${ref.startsWith('sha256:') ? '@' : ':'}${ref}`;
  }

  /**
   * GETs a manifest by tag or digest, bounded to MANIFEST_MAX_BYTES. By digest, the bytes must
   * hash to it; by tag, they must hash to the Docker-Content-Digest the registry declares, if any.
   */
  async getManifest(ref: string, accept: readonly string[] = [OCI_MANIFEST, OCI_INDEX]): Promise<FetchedManifest> {
    const what = `manifest ${this.name(ref)}`;
    const reply = await this.http.request('GET', this.path('manifests', ref), { headers: { accept: accept.join(', ') }, what });
    const bytes = await readBounded(
      reply,
      MANIFEST_MAX_BYTES,
      () => new SkillctlError('OCI_MANIFEST_TOO_LARGE', `${this.ref.registry}: ${what} is over ${MANIFEST_MAX_BYTES} bytes`),
    );
    const digest = sha256(bytes);
    const expected = ref.startsWith('sha256:') ? ref : reply.response.headers.get('docker-content-digest');
    if (expected !== null && expected !== digest) {
      throw new SkillctlError('OCI_DIGEST_MISMATCH', `${this.ref.registry}: ${what} hashes to ${digest}, not ${expected}`);
    }
    return { bytes, digest, contentType: reply.response.headers.get('content-type') ?? undefined };
  }

  /**
   * The digest a tag resolves to now, as a pull resolves it: the manifest fetched (GET) and
   * hashed. Not HEAD's Docker-Content-Digest: a registry, or a proxy or cache before it, that
   * answers HEAD with the digest pinned while GET serves what was pushed over the tag would tell
   * `verify-pins --remote` nothing moved while every pull of the tag gets another skill.
   */
  async resolveDigest(ref: string): Promise<Sha256Digest> {
    return (await this.getManifest(ref)).digest;
  }

  async putManifest(ref: string, bytes: Buffer, mediaType: string): Promise<{ subjectAccepted: boolean }> {
    const reply = await this.http.request('PUT', this.path('manifests', ref), { headers: { 'content-type': mediaType }, body: bytes, what: `manifest ${this.name(ref)}` });
    await reply.response.body.cancel();
    reply.done();
    return { subjectAccepted: reply.response.headers.get('oci-subject') !== null };
  }

  async hasBlob(digest: string): Promise<boolean> {
    const reply = await this.http.request('HEAD', this.path('blobs', digest), { accept: [404], what: `blob ${digest}` });
    reply.done();
    return reply.response.status < 300;
  }

  /** A small blob (config, signature) into memory, bounded by its descriptor and `max`, digest checked. */
  async getSmallBlob(desc: Descriptor, max: number): Promise<Buffer> {
    const what = `blob ${desc.digest}`;
    if (desc.size > max) throw new SkillctlError('OCI_MANIFEST_INVALID', `${this.ref.registry}: ${what} claims ${desc.size} bytes; a ${desc.mediaType} is at most ${max}`);
    const reply = await this.http.request('GET', this.path('blobs', desc.digest), { what });
    const bytes = await readBounded(reply, desc.size, () => new SkillctlError('OCI_SIZE_MISMATCH', `${this.ref.registry}: ${what} is longer than its ${desc.size} bytes`));
    if (bytes.length !== desc.size) throw new SkillctlError('OCI_SIZE_MISMATCH', `${this.ref.registry}: ${what} is ${bytes.length} bytes, not ${desc.size}`);
    if (sha256(bytes) !== desc.digest) throw new SkillctlError('OCI_DIGEST_MISMATCH', `${this.ref.registry}: ${what} hashes to ${sha256(bytes)}`);
    return bytes;
  }

  /**
   * GETs a blob for streaming: each piece the result hands out was first counted against the
   * descriptor's size, hashed and written to `sink` (./blob-download.ts). A length the registry
   * announces that is not the descriptor's is refused before a byte is read.
   */
  async openBlob(desc: Descriptor, sink: FileHandle): Promise<BlobDownload> {
    const what = `blob ${desc.digest}`;
    const reply = await this.http.request('GET', this.path('blobs', desc.digest), { what });
    const declared = Number(reply.response.headers.get('content-length'));
    if (reply.response.headers.has('content-length') && Number.isFinite(declared) && declared !== desc.size) {
      await reply.response.body.cancel();
      reply.done();
      throw new SkillctlError('OCI_SIZE_MISMATCH', `${this.ref.registry}: ${what} is sent as ${declared} bytes, not ${desc.size}`);
    }
    return new BlobDownload(reply, desc, sink, `${this.ref.registry}: ${what}`);
  }

  /**
   * Streams a blob into the file `dest` (created, never overwritten), hashing it as it arrives;
   * the file is only complete once the size and digest both matched. The caller renames it into
   * place; on any error it is left for the caller to remove.
   */
  async downloadBlob(desc: Descriptor, dest: string): Promise<void> {
    const fh = await open(dest, 'wx', 0o644);
    try {
      const blob = await this.openBlob(desc, fh);
      await blob.drain();
      blob.verify();
    } finally {
      await fh.close();
    }
  }

  /** Uploads a blob held in memory (a config, a signature) unless the registry has it; whether anything was sent. */
  uploadBlob(bytes: Buffer, digest: Sha256Digest, chunkBytes?: number): Promise<boolean> {
    return this.uploads.uploadBytes(bytes, digest, chunkBytes);
  }

  /**
   * Uploads the file at `path` (whose digest the caller computed) unless the registry has it:
   * streamed in one request, or in chunks (./blob-upload.ts). How it was sent, or false.
   */
  uploadBlobFile(path: string, size: number, digest: Sha256Digest, chunkBytes?: number): Promise<UploadOutcome> {
    return this.uploads.uploadFile(path, size, digest, chunkBytes);
  }

  /** Sends the file at `path` without committing it (./blob-upload.ts): push checks the archive meanwhile; `signal` gives the send up. */
  stageBlobFile(path: string, size: number, digest: Sha256Digest, chunkBytes?: number, signal?: AbortSignal): Promise<StagedUpload> {
    return this.uploads.stageFile(path, size, digest, chunkBytes, signal);
  }

  /** The referrers API's index for `digest`, or undefined where the registry has no such API (404). */
  async referrers(digest: string, artifactType: string): Promise<Buffer | undefined> {
    const what = `referrers of ${digest}`;
    const reply = await this.http.request('GET', `${this.path('referrers', digest)}?artifactType=${encodeURIComponent(artifactType)}`, {
      headers: { accept: OCI_INDEX },
      accept: [404],
      what,
    });
    const ct = reply.response.headers.get('content-type') ?? '';
    if (reply.response.status === 404 || !ct.startsWith(OCI_INDEX)) {
      await reply.response.body.cancel();
      reply.done();
      return undefined;
    }
    return readBounded(reply, MANIFEST_MAX_BYTES, () => new SkillctlError('OCI_MANIFEST_TOO_LARGE', `${this.ref.registry}: the ${what} are over ${MANIFEST_MAX_BYTES} bytes`));
  }

  /** A manifest that may be missing (the referrers tag): undefined on 404. */
  async getManifestIfAny(ref: string, accept: readonly string[]): Promise<FetchedManifest | undefined> {
    try {
      return await this.getManifest(ref, accept);
    } catch (err) {
      if (isSkillctlError(err) && err.code === 'OCI_NOT_FOUND') return undefined;
      throw err;
    }
  }
}
