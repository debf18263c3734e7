import { createHash, webcrypto } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Sha256Digest } from '../digest/index.js';

/** sha256 of a stream without holding it in memory. */
export async function hashStream(stream: Readable): Promise<Sha256Digest> {
  const h = createHash('sha256');
  for await (const chunk of stream) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}

/** Below this, hashing on the calling thread is cheaper than a hand-off to the thread pool. */
const INLINE_HASH_BYTES = 64 * 1024;
/** Above this, a file is hashed in a stream rather than read whole. */
const WHOLE_FILE_BYTES = 32 * 1024 * 1024;
const STREAM_CHUNK = 1024 * 1024;

function hex(buf: ArrayBuffer): string {
  return Buffer.from(buf).toString('hex');
}

/**
 * sha256 of a file's bytes. Files of moderate size are read whole and hashed by WebCrypto,
 * which runs on libuv's thread pool: many files hashed at once use every core, while the
 * calling thread goes on listing and parsing. Large files are streamed.
 */
export async function digestFile(path: string): Promise<Sha256Digest> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size <= WHOLE_FILE_BYTES) {
      const data = await fh.readFile();
      if (data.length < INLINE_HASH_BYTES) return `sha256:${createHash('sha256').update(data).digest('hex')}`;
      return `sha256:${hex(await webcrypto.subtle.digest('SHA-256', data))}`;
    }
    const h = createHash('sha256');
    const buf = Buffer.allocUnsafe(STREAM_CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, STREAM_CHUNK, null);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
    }
    return `sha256:${h.digest('hex')}`;
  } finally {
    await fh.close();
  }
}
