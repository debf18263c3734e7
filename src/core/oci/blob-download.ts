/**
 * One blob's GET body, read piece by piece under its descriptor: every piece is counted (a byte
 * past the descriptor's size stops the download, so an endless body costs nothing more) and
 * hashed before anyone else sees it, then handed on, and written to the cache's scratch file in
 * batches (all of it before the end of the body is reported). A consumer
 * (the streaming unpacker of `pull`) may stop reading early; `drain` reads the rest, so the whole
 * blob is hashed and stored either way, and only `verify` says whether the bytes are the blob the
 * digest names. Until it has, nothing read may be trusted or placed anywhere but a scratch folder.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { SkillctlError } from '../errors.js';
import type { Descriptor } from './artifact.js';
import { bodyCut } from './network-error.js';
import type { Reply } from './transport.js';

/**
 * The socket's pieces (16 to 64 KiB) are written to the sink this many bytes at a time: each
 * write is a round trip to the thread pool, and a few thousand of them cost more than the data.
 */
const SINK_BATCH = 512 * 1024;

export class BlobDownload {
  private readonly hash = createHash('sha256');
  private total = 0;
  private ended = false;
  /** Pieces hashed and handed on but not yet in the sink (written together, SINK_BATCH at a time). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The first failure; every later read gives it again (a consumer may have swallowed it). */
  private failure: unknown;
  /** The read in flight: reads are serialised, so `drain` never overtakes a consumer's last read. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * `sink` receives every piece, in order, before it is handed on (the cache's scratch file).
   * `what` and `registry` name the blob in messages.
   */
  constructor(
    private readonly reply: Reply,
    private readonly desc: Descriptor,
    private readonly sink: FileHandle,
    private readonly where: string,
  ) {}

  /** The next piece, or undefined at the end of the body. */
  next(): Promise<Buffer | undefined> {
    const read = this.queue.then(() => this.read());
    this.queue = read.catch(() => undefined);
    return read;
  }

  private async read(): Promise<Buffer | undefined> {
    if (this.failure !== undefined) throw this.failure;
    if (this.ended) return undefined;
    try {
      let piece: Buffer | undefined;
      try {
        piece = await this.reply.response.body.read();
      } catch (err) {
        // The connection failed (cut, reset, the idle timer): the registry could not be used,
        // as for a manifest (docs/codes.md). A body that ends early but cleanly is the size
        // mismatch `verify` reports.
        throw bodyCut(err, this.where, `${this.total} of ${this.desc.size} bytes`);
      }
      if (piece === undefined) {
        await this.flush();
        this.ended = true;
        this.reply.done();
        return undefined;
      }
      this.reply.touch();
      this.total += piece.length;
      if (this.total > this.desc.size) throw new SkillctlError('OCI_SIZE_MISMATCH', `${this.where} is longer than its ${this.desc.size} bytes`);
      this.hash.update(piece);
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      if (this.pendingBytes >= SINK_BATCH) await this.flush();
      return piece;
    } catch (err) {
      this.failure = err;
      await this.cancel();
      throw err;
    }
  }

  /** Writes the pieces held back to the sink, in order, in one call. */
  private async flush(): Promise<void> {
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (pieces.length > 0) await this.sink.writev(pieces);
  }

  /** The pieces as an async iterable; stopping the iteration early leaves the rest for `drain`. */
  async *pieces(): AsyncGenerator<Buffer> {
    for (let piece = await this.next(); piece !== undefined; piece = await this.next()) yield piece;
  }

  /** Reads (hashes and stores) whatever the consumer left unread. */
  async drain(): Promise<void> {
    while ((await this.next()) !== undefined);
  }

  /** After `drain`: the blob is whole and hashes to its digest, or the matching finding is thrown. */
  verify(): void {
    if (this.failure !== undefined) throw this.failure;
    if (!this.ended) throw new Error('BlobDownload.verify before the body was read to its end');
    if (this.total !== this.desc.size) throw new SkillctlError('OCI_SIZE_MISMATCH', `${this.where} is ${this.total} bytes, not ${this.desc.size}`);
    const got = `sha256:${this.hash.digest('hex')}`;
    if (got !== this.desc.digest) throw new SkillctlError('OCI_DIGEST_MISMATCH', `${this.where} hashes to ${got}`);
  }

  /** Stops the download (an error elsewhere): the connection is released, nothing more is read. */
  async cancel(): Promise<void> {
    this.ended = true;
    await this.reply.response.body.cancel();
    this.reply.done();
  }
}
