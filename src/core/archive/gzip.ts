/**
 * gzip output that is byte-identical everywhere. node:zlib is a binding to whichever zlib the
 * Node build carries (Node 20 and Node 24 ship different ones, and Chromium's zlib varies its
 * matcher with the CPU's SIMD features), and deflate output is not specified beyond being
 * decodable. fflate is plain JavaScript: the same input, pushed in the same pieces, gives the
 * same bytes on every machine and Node version. Its version is pinned exactly in package.json,
 * and a golden test records the digest of a packed fixture.
 */
import { crc32 } from 'node:zlib';
import { Deflate } from 'fflate';

/** Input is fed to the compressor in pieces of exactly this size, so block boundaries are fixed. */
const PIECE = 64 * 1024;

/** Fixed header: no name, no mtime (0), no extra flags, OS 3 (Unix) as GNU gzip writes it. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);

/**
 * Where the raw DEFLATE work happens: fed the same pieces, in the same order, it gives the same
 * bytes. It runs in this thread: a worker thread that overlapped compressing with reading and
 * hashing (as `tar -czf` overlaps tar and gzip) saved nothing measurable, since DEFLATE is over
 * 95% of the work, and held every piece in flight in memory (docs/performance.md).
 */
interface DeflateSink {
  /** Takes a piece; the sink must copy it before returning if it keeps it (the caller reuses it). */
  push(piece: Uint8Array, final: boolean): void;
  /** The compressed stream, once the final piece was pushed. */
  result(): Promise<Buffer[]>;
  /** Gives up (the archive will not be finished): frees whatever the sink holds. */
  abort(): void;
}

/** DEFLATE level 6 in this thread (fflate). */
function inThreadDeflate(): DeflateSink {
  const out: Buffer[] = [];
  // fflate copies each pushed piece into its window and hands out fresh output arrays.
  const deflate = new Deflate({ level: 6, mem: 8 }, (chunk) => {
    if (chunk.length > 0) out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
  return {
    push: (piece, final) => deflate.push(piece, final),
    result: () => Promise.resolve(out),
    abort: () => undefined,
  };
}

export class DeterministicGzip {
  private pending = Buffer.allocUnsafe(PIECE);
  private filled = 0;
  private crc = 0;
  private size = 0;

  private readonly deflate: DeflateSink = inThreadDeflate();

  /** Abandons the stream (an input could not be read). */
  abort(): void {
    this.deflate.abort();
  }

  write(data: Uint8Array): void {
    this.crc = crc32(data, this.crc);
    this.size += data.length;
    let i = 0;
    while (i < data.length) {
      const n = Math.min(PIECE - this.filled, data.length - i);
      this.pending.set(data.subarray(i, i + n), this.filled);
      this.filled += n;
      i += n;
      if (this.filled === PIECE) {
        this.deflate.push(this.pending, false);
        this.filled = 0;
      }
    }
  }

  /** Ends the stream; returns the whole gzip file. */
  async end(): Promise<Buffer> {
    this.deflate.push(this.pending.subarray(0, this.filled), true);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.size % 2 ** 32, 4);
    return Buffer.concat([HEADER, ...(await this.deflate.result()), trailer]);
  }
}
