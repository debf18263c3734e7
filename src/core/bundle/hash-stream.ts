import { createHash, webcrypto } from 'node:crypto';
import { sha256, type Sha256Digest } from '../digest/index.js';

/** sha256 of a stream (or any pieces, such as ../archive's filePieces) without holding it in memory. */
export async function hashStream(stream: AsyncIterable<unknown>): Promise<Sha256Digest> {
  const h = createHash('sha256');
  for await (const chunk of stream) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}

/** Below this, hashing on the calling thread is cheaper than a hand-off to the thread pool. */
const INLINE_HASH_BYTES = 64 * 1024;

/**
 * sha256 of bytes in memory. Above 64 KiB the hash is computed by WebCrypto, which runs on
 * libuv's thread pool: many files hashed at once use every core, while the calling thread goes
 * on listing and parsing.
 */
export async function digestBytes(data: Uint8Array): Promise<Sha256Digest> {
  if (data.length < INLINE_HASH_BYTES) return sha256(data);
  return `sha256:${Buffer.from(await webcrypto.subtle.digest('SHA-256', data)).toString('hex')}`;
}
