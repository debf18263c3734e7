import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Sha256Digest } from '../digest/index.js';

/** sha256 of a stream without holding it in memory. */
export async function hashStream(stream: Readable): Promise<Sha256Digest> {
  const h = createHash('sha256');
  for await (const chunk of stream) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}
