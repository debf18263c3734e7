/**
 * Cursor pagination as MCP's list methods have it: an opaque `cursor` in, a `nextCursor` out
 * while there is more. The cursor is the offset of the next item, encoded; one the server did not
 * give is -32602.
 */
import { RPC, RpcError } from './wire/errors.js';

export function page<T>(all: readonly T[], cursor: string | undefined, size: number): { items: readonly T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const m = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (m === null || Buffer.from(`o${m[1]}`).toString('base64url') !== cursor) throw new RpcError(RPC.INVALID_PARAMS, 'Invalid params: cursor is not one this server gave');
    start = Number(m[1]);
  }
  const end = start + size;
  return end < all.length ? { items: all.slice(start, end), nextCursor: Buffer.from(`o${end}`).toString('base64url') } : { items: all.slice(start) };
}
