/**
 * Cursor pagination as MCP's list methods have it: an opaque `cursor` in, a `nextCursor` out
 * while there is more. The cursor is the offset of the next item, encoded; one the server did not
 * give is -32602.
 */
import { randomBytes } from 'node:crypto';
import { RPC, RpcError } from './wire/errors.js';

const notGiven = (): RpcError => new RpcError(RPC.INVALID_PARAMS, 'Invalid params: cursor is not one this server gave');

export function page<T>(all: readonly T[], cursor: string | undefined, size: number): { items: readonly T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const m = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (m === null || Buffer.from(`o${m[1]}`).toString('base64url') !== cursor) throw notGiven();
    start = Number(m[1]);
  }
  const end = start + size;
  return end < all.length ? { items: all.slice(start, end), nextCursor: Buffer.from(`o${end}`).toString('base64url') } : { items: all.slice(start) };
}

/**
 * The pages of one listing cut from one snapshot of it, taken at its first page: a tree that
 * changes between pages, or a cursor replayed later, never gives a client entries of two states
 * under one listing (an entry twice at a page boundary, one never). The cursor names the snapshot
 * and the offset in it (`<snapshot>.<offset>`); the last `max` snapshots are kept, and a cursor
 * of one dropped, or never given, is -32602: the client starts a new listing.
 */
export class SnapshotPages<T> {
  private readonly kept = new Map<string, { readonly key: string; readonly all: readonly T[] }>();

  constructor(private readonly max: number) {}

  /**
   * The page `cursor` names, or the first of a listing `take` makes now. `key` names what is
   * listed (a directory's URI): a cursor given for another key is -32602. A listing of one page
   * is not kept.
   */
  async page(cursor: string | undefined, size: number, take: () => Promise<readonly T[]>, key = ''): Promise<{ items: readonly T[]; nextCursor?: string }> {
    let snap: string;
    let all: readonly T[];
    let offset: string | undefined;
    if (cursor !== undefined) {
      const m = /^([0-9a-f]{16})\.([A-Za-z0-9_-]+)$/.exec(cursor);
      const kept = m !== null ? this.kept.get(m[1] as string) : undefined;
      if (m === null || kept === undefined || kept.key !== key) throw notGiven();
      [snap, all, offset] = [m[1] as string, kept.all, m[2]];
    } else {
      all = await take();
      snap = randomBytes(8).toString('hex');
      if (all.length > size) {
        this.kept.set(snap, { key, all });
        for (const old of this.kept.keys()) if (this.kept.size > this.max) this.kept.delete(old);
      }
    }
    const { items, nextCursor } = page(all, offset, size);
    return { items, ...(nextCursor !== undefined ? { nextCursor: `${snap}.${nextCursor}` } : {}) };
  }
}
