/**
 * The distribution API calls skillctl makes, over one Transport: manifests (GET, HEAD, PUT),
 * blobs (HEAD, streaming GET with the digest and size checked as the bytes arrive, monolithic and
 * chunked uploads) and referrers. Everything the registry sends is untrusted: sizes are bounded
 * before and while reading, digests are computed here and compared, never taken from headers.
 */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isSkillctlError, SkillctlError } from '../errors.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { BlobDownload } from './blob-download.js';
import { MANIFEST_MAX_BYTES, OCI_INDEX, OCI_MANIFEST, type Descriptor } from './artifact.js';
import type { OciReference } from './reference.js';
import { Transport, type Reply, type TransportOptions } from './transport.js';

/** Chunks of a chunked upload (distribution accepts any size). */
export const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * The answers to a monolithic PUT that mean "not in one request this large" rather than "not
 * this blob": payload too large (nginx's client_max_body_size, a registry's own cap), length
 * required, method or feature not supported. A streamed upload that gets one is sent again in
 * chunks; a digest the registry refuses (400) is not retried.
 */
const REFUSED_WHOLE = [405, 411, 413, 501] as const;

/** Pieces read from the file for a streamed upload. */
const STREAM_PIECE = 256 * 1024;

export interface FetchedManifest {
  readonly bytes: Buffer;
  readonly digest: Sha256Digest;
  readonly contentType: string | undefined;
}

/** Reads a body into memory, refusing more than `max` bytes as soon as they arrive. */
async function readBounded(reply: Reply, max: number, tooLarge: () => SkillctlError): Promise<Buffer> {
  const declared = Number(reply.response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await reply.response.body?.cancel().catch(() => undefined);
    reply.done();
    throw tooLarge();
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = reply.response.body?.getReader();
  try {
    while (reader !== undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      reply.touch();
      total += value.length;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      parts.push(value);
    }
  } catch (err) {
    if (isSkillctlError(err)) throw err;
    throw new SkillctlError('OCI_UNREACHABLE', `the connection failed while reading: ${String((err as Error).message)}`, { cause: err });
  } finally {
    reply.done();
  }
  return Buffer.concat(parts);
}

export class RegistryClient {
  readonly ref: OciReference;
  private readonly http: Transport;

  constructor(ref: OciReference, opts: TransportOptions) {
    this.ref = ref;
    this.http = new Transport(ref.registry, ref.hostname, opts);
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

  /** The digest a tag resolves to now: HEAD's Docker-Content-Digest, or the GET's own hash. */
  async resolveDigest(ref: string): Promise<Sha256Digest> {
    const what = `manifest ${this.name(ref)}`;
    const reply = await this.http.request('HEAD', this.path('manifests', ref), { headers: { accept: `${OCI_MANIFEST}, ${OCI_INDEX}` }, what });
    reply.done();
    const header = reply.response.headers.get('docker-content-digest');
    if (header !== null && /^sha256:[0-9a-f]{64}$/.test(header)) return header as Sha256Digest;
    return (await this.getManifest(ref)).digest;
  }

  async putManifest(ref: string, bytes: Buffer, mediaType: string): Promise<{ subjectAccepted: boolean }> {
    const reply = await this.http.request('PUT', this.path('manifests', ref), { headers: { 'content-type': mediaType }, body: bytes, what: `manifest ${this.name(ref)}` });
    await reply.response.body?.cancel().catch(() => undefined);
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
      await reply.response.body?.cancel().catch(() => undefined);
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

  /** The upload URL of a 202, resolved against the registry (distribution sends a relative one). */
  private uploadUrl(reply: Reply): URL {
    const location = reply.response.headers.get('location');
    if (location === null) throw new SkillctlError('OCI_REGISTRY_ERROR', `${this.ref.registry}: an upload answer has no Location`);
    const url = new URL(location, reply.url);
    if (url.origin !== new URL(reply.url).origin) throw new SkillctlError('OCI_REGISTRY_ERROR', `${this.ref.registry}: an upload moved to another host (${url.host}); uploads stay on the registry`);
    return url;
  }

  private relative(url: URL): string {
    return `${url.pathname}${url.search}`;
  }

  /**
   * Uploads a blob held in memory (a config, a signature) unless the registry has it: in one PUT
   * up to `chunkBytes`, in chunks of that size above. Returns whether anything was sent.
   */
  async uploadBlob(bytes: Buffer, digest: Sha256Digest, chunkBytes: number = DEFAULT_CHUNK_BYTES): Promise<boolean> {
    if (await this.hasBlob(digest)) return false;
    await this.uploadFrom({ size: bytes.length, read: (off, len) => Promise.resolve(bytes.subarray(off, off + len)) }, digest, chunkBytes);
    return true;
  }

  /**
   * Uploads the file at `path` (whose digest the caller computed as it wrote or read it) unless
   * the registry has it. Without `chunkBytes`: in one PUT whose body streams from the file (the
   * registry hashes what arrives and refuses a digest that does not match), or, where the
   * registry or a proxy before it refuses so large a request (REFUSED_WHOLE), in chunks of
   * DEFAULT_CHUNK_BYTES; with `chunkBytes`, in chunks of that size. Either way the file is read
   * a piece at a time: a layer of any size costs one piece (or one chunk) of memory. Returns
   * how it was sent, or false when the registry had it.
   */
  async uploadBlobFile(path: string, size: number, digest: Sha256Digest, chunkBytes?: number): Promise<false | 'streamed' | 'chunked'> {
    if (await this.hasBlob(digest)) return false;
    if (chunkBytes === undefined && (await this.uploadStreamed(path, size, digest))) return 'streamed';
    const chunk = chunkBytes ?? DEFAULT_CHUNK_BYTES;
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(Math.min(size, chunk));
      const read = async (off: number, len: number): Promise<Buffer> => {
        let got = 0;
        while (got < len) {
          const { bytesRead } = await fh.read(buf, got, len - got, off + got);
          if (bytesRead === 0) throw new SkillctlError('INPUT_UNREADABLE', `${path} ended after ${off + got} of ${size} bytes while it was uploaded`);
          got += bytesRead;
        }
        return buf.subarray(0, len);
      };
      await this.uploadFrom({ size, read }, digest, chunk);
      return 'chunked';
    } finally {
      await fh.close();
    }
  }

  /** Opens an upload session (POST); its URL. */
  private async startUpload(what: string): Promise<URL> {
    const start = await this.http.request('POST', `/v2/${this.ref.repository}/blobs/uploads/`, { what: `upload of ${what}` });
    await start.response.body?.cancel().catch(() => undefined);
    start.done();
    return this.uploadUrl(start);
  }

  /**
   * The file in one monolithic PUT with a streamed body. False when the registry refused a
   * request that large (the session is then cancelled, best effort); any other failure throws.
   */
  private async uploadStreamed(path: string, size: number, digest: Sha256Digest): Promise<boolean> {
    const what = `blob ${digest}`;
    const url = await this.startUpload(what);
    const session = this.relative(url);
    url.searchParams.set('digest', digest);
    const body = { length: size, open: () => createReadStream(path, { highWaterMark: STREAM_PIECE }) };
    const put = await this.http.request('PUT', this.relative(url), { headers: { 'content-type': 'application/octet-stream' }, body, accept: REFUSED_WHOLE, what: `upload of ${what}` });
    await put.response.body?.cancel().catch(() => undefined);
    put.done();
    if (put.response.status < 300) return true;
    const cancel = await this.http.request('DELETE', session, { accept: [400, 403, 404, 405, 501], what: `cancelling the upload of ${what}` }).catch(() => undefined);
    cancel?.done();
    return false;
  }

  /** POST, then PATCH per chunk (Content-Range) and PUT with the digest; or one PUT up to `chunkBytes`. */
  private async uploadFrom(blob: { size: number; read: (off: number, len: number) => Promise<Buffer> }, digest: Sha256Digest, chunkBytes: number): Promise<void> {
    const what = `blob ${digest}`;
    let url = await this.startUpload(what);
    if (blob.size > chunkBytes) {
      for (let off = 0; off < blob.size; off += chunkBytes) {
        // Each piece `read` returns is sent before the next is asked for (a retry sends it again).
        const chunk = await blob.read(off, Math.min(chunkBytes, blob.size - off));
        const reply = await this.http.request('PATCH', this.relative(url), {
          headers: { 'content-type': 'application/octet-stream', 'content-range': `${off}-${off + chunk.length - 1}`, 'content-length': String(chunk.length) },
          body: chunk,
          what: `upload of ${what}`,
        });
        reply.done();
        url = this.uploadUrl(reply);
      }
      url.searchParams.set('digest', digest);
      const end = await this.http.request('PUT', this.relative(url), { what: `upload of ${what}` });
      end.done();
      return;
    }
    url.searchParams.set('digest', digest);
    const body = await blob.read(0, blob.size);
    const put = await this.http.request('PUT', this.relative(url), { headers: { 'content-type': 'application/octet-stream' }, body, what: `upload of ${what}` });
    put.done();
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
      await reply.response.body?.cancel().catch(() => undefined);
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
