/**
 * Blob uploads of the distribution API, for one repository over one Transport. A blob held in
 * memory (a config, a signature) goes in one PUT, or in chunks above the chunk size. A file (a
 * layer) is streamed in one PATCH, a piece at a time, and committed by a PUT naming its digest
 * (the registry hashes what arrived and refuses a digest that does not match); where the registry
 * or a proxy before it refuses one request that large (REFUSED_WHOLE), or where chunks are asked
 * for, it goes in chunks (PATCH with Content-Range, then the PUT). Either way a layer of any size
 * costs one piece, or one chunk, of memory.
 *
 * A file upload is staged first: the bytes are sent but not committed, so push can send a layer
 * while it still checks the archive, and commit it only once the check passed. An upload that is
 * never committed is no blob: a refused skill leaves nothing in the registry (the session is
 * cancelled, and registries expire the ones a lost connection leaves).
 */
import { filePieces } from '../archive/index.js';
import type { Sha256Digest } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { openRegularFile } from '../fs/index.js';
import type { Reply, Transport } from './transport.js';

/** Chunks of a chunked upload (distribution accepts any size). */
export const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * The answers to a whole-body request that mean "not in one request this large" rather than "not
 * this blob": payload too large (nginx's client_max_body_size, a registry's own cap), length
 * required, method or feature not supported. A streamed upload that gets one is sent again in
 * chunks; a digest the registry refuses (400) is not retried.
 */
const REFUSED_WHOLE = [405, 411, 413, 501] as const;

/**
 * The file at `path`, `size` bytes of it, in pieces of one reused buffer (../archive/file-pieces.ts).
 * Opened anew for each send, so it goes through the same guard as the hash step: a FIFO swapped
 * in after the hash is refused, not waited on forever.
 */
async function* pathPieces(path: string, size: number): AsyncGenerator<Buffer> {
  const { fh } = await openRegularFile(path, path);
  try {
    yield* filePieces(fh, size, path);
  } finally {
    await fh.close();
  }
}

/** How a blob went: false when the registry had it. */
export type UploadOutcome = false | 'streamed' | 'chunked';

/** A file upload sent (or, where it must go in chunks, not yet) but not committed. */
export interface StagedUpload {
  /** Commits the blob under the digest it was staged with. */
  commit(): Promise<UploadOutcome>;
  /** Gives the uncommitted upload up (best effort): the registry keeps nothing of it. */
  cancel(): Promise<void>;
}

interface Readable {
  readonly size: number;
  /** Bytes `off` to `off + len`; the result may be reused by the next call. */
  read(off: number, len: number): Promise<Buffer>;
}

const nothing = (): Promise<void> => Promise.resolve();

export class BlobUploads {
  constructor(
    private readonly http: Transport,
    private readonly registry: string,
    private readonly repository: string,
    private readonly hasBlob: (digest: string) => Promise<boolean>,
  ) {}

  /** The upload URL of an answer, resolved against the registry (distribution sends a relative one). */
  private uploadUrl(reply: Reply): URL {
    const location = reply.response.headers.get('location');
    if (location === null) throw new SkillctlError('OCI_REGISTRY_ERROR', `${this.registry}: an upload answer has no Location`);
    const url = new URL(location, reply.url);
    if (url.origin !== new URL(reply.url).origin) throw new SkillctlError('OCI_REGISTRY_ERROR', `${this.registry}: an upload moved to another host (${url.host}); uploads stay on the registry`);
    return url;
  }

  private relative(url: URL): string {
    return `${url.pathname}${url.search}`;
  }

  /** Sends a request and drops its (small) answer body; returns the reply for its status and headers. */
  private async send(method: string, url: URL, init: Parameters<Transport['request']>[2]): Promise<Reply> {
    const reply = await this.http.request(method, this.relative(url), init);
    await reply.response.body.cancel();
    reply.done();
    return reply;
  }

  /** Opens an upload session (POST); its URL. */
  private async startUpload(what: string): Promise<URL> {
    const start = await this.http.request('POST', `/v2/${this.repository}/blobs/uploads/`, { what: `upload of ${what}` });
    await start.response.body.cancel();
    start.done();
    return this.uploadUrl(start);
  }

  /** Cancels a session, best effort (a registry may not support it; it expires either way). */
  private async cancelSession(url: URL, what: string): Promise<void> {
    await this.send('DELETE', url, { accept: [400, 403, 404, 405, 501], what: `cancelling the upload of ${what}`, cleanup: true }).catch(() => undefined);
  }

  /** Commits a session: PUT with the digest, and no body. A commit that fails cancels the session. */
  private async commitSession(url: URL, digest: Sha256Digest): Promise<void> {
    const put = new URL(url);
    put.searchParams.set('digest', digest);
    await this.closing(url, `blob ${digest}`, () => this.send('PUT', put, { what: `upload of blob ${digest}` }));
  }

  /**
   * Runs `step` of the session at `url`; when it fails (a 5xx, a cut connection, a request given
   * up), cancels the session before the failure goes on: the registry would otherwise hold what
   * was sent until the session expires.
   */
  private async closing<T>(url: URL, what: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      await this.cancelSession(url, what);
      throw err;
    }
  }

  /**
   * Uploads a blob held in memory unless the registry has it: in one PUT up to `chunkBytes`, in
   * chunks of that size above. Returns whether anything was sent.
   */
  async uploadBytes(bytes: Buffer, digest: Sha256Digest, chunkBytes: number = DEFAULT_CHUNK_BYTES): Promise<boolean> {
    if (await this.hasBlob(digest)) return false;
    await this.uploadFrom({ size: bytes.length, read: (off, len) => Promise.resolve(bytes.subarray(off, off + len)) }, digest, chunkBytes);
    return true;
  }

  /**
   * Stages the file at `path` (`size` bytes, whose digest the caller computed) unless the registry
   * has it: without `chunkBytes`, sends it in one streamed PATCH (falling back to chunks of
   * DEFAULT_CHUNK_BYTES, sent on commit, where that is refused); with `chunkBytes`, nothing is sent
   * until commit, which sends chunks of that size.
   */
  async stageFile(path: string, size: number, digest: Sha256Digest, chunkBytes?: number, signal?: AbortSignal): Promise<StagedUpload> {
    const what = `blob ${digest}`;
    if (await this.hasBlob(digest)) return { commit: () => Promise.resolve(false), cancel: nothing };
    const inChunks = (chunk: number): StagedUpload => ({
      commit: async () => {
        await this.uploadFileChunks(path, size, digest, chunk);
        return 'chunked';
      },
      cancel: nothing,
    });
    if (chunkBytes !== undefined) return inChunks(chunkBytes);
    const session = await this.startUpload(what);
    const body = { length: size, open: () => pathPieces(path, size) };
    const patch = await this.closing(session, what, () =>
      this.send('PATCH', session, { headers: { 'content-type': 'application/octet-stream' }, body, accept: REFUSED_WHOLE, what: `upload of ${what}`, ...(signal !== undefined ? { signal } : {}) }),
    );
    if (patch.response.status >= 300) {
      await this.cancelSession(session, what);
      return inChunks(DEFAULT_CHUNK_BYTES);
    }
    const url = this.uploadUrl(patch);
    return {
      commit: async () => {
        await this.commitSession(url, digest);
        return 'streamed';
      },
      cancel: () => this.cancelSession(url, what),
    };
  }

  /** `stageFile`, committed at once. */
  async uploadFile(path: string, size: number, digest: Sha256Digest, chunkBytes?: number): Promise<UploadOutcome> {
    return (await this.stageFile(path, size, digest, chunkBytes)).commit();
  }

  /** The file in chunks, each read into one reused buffer. */
  private async uploadFileChunks(path: string, size: number, digest: Sha256Digest, chunk: number): Promise<void> {
    // The same guard as the hash step: a FIFO swapped in since is refused, not waited on.
    const { fh } = await openRegularFile(path, path);
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
    } finally {
      await fh.close();
    }
  }

  /** POST, then PATCH per chunk (Content-Range) and PUT with the digest; or one PUT up to `chunkBytes`. */
  private async uploadFrom(blob: Readable, digest: Sha256Digest, chunkBytes: number): Promise<void> {
    const what = `blob ${digest}`;
    let url = await this.startUpload(what);
    if (blob.size > chunkBytes) {
      for (let off = 0; off < blob.size; off += chunkBytes) {
        // Each piece `read` returns is sent before the next is asked for (a retry sends it again).
        const at = url;
        const chunk = await this.closing(at, what, () => blob.read(off, Math.min(chunkBytes, blob.size - off)));
        const reply = await this.closing(at, what, () =>
          this.send('PATCH', at, { headers: { 'content-type': 'application/octet-stream', 'content-range': `${off}-${off + chunk.length - 1}` }, body: chunk, what: `upload of ${what}` }),
        );
        url = this.uploadUrl(reply);
      }
      await this.commitSession(url, digest);
      return;
    }
    const put = new URL(url);
    put.searchParams.set('digest', digest);
    const body = await this.closing(url, what, () => blob.read(0, blob.size));
    await this.closing(url, what, () => this.send('PUT', put, { headers: { 'content-type': 'application/octet-stream' }, body, what: `upload of ${what}` }));
  }
}
