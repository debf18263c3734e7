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

export class DeterministicGzip {
  private readonly out: Buffer[] = [HEADER];
  private readonly deflate: Deflate;
  private pending = Buffer.allocUnsafe(PIECE);
  private filled = 0;
  private crc = 0;
  private size = 0;

  constructor() {
    this.deflate = new Deflate({ level: 6, mem: 8 }, (chunk) => {
      if (chunk.length > 0) this.out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    });
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
        // fflate keeps no reference to a pushed piece once push returns (it copies into its window).
        this.filled = 0;
      }
    }
  }

  /** Ends the stream; returns the whole gzip file. */
  end(): Buffer {
    this.deflate.push(this.pending.subarray(0, this.filled), true);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.size % 2 ** 32, 4);
    this.out.push(trailer);
    return Buffer.concat(this.out);
  }
}
