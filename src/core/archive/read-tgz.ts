/**
 * Reading a .tgz held in memory, safely: inflated with a hard output bound (a decompression bomb
 * costs at most that much memory and is never unpacked), then walked by the guarded tar walk
 * (./tar-walk.ts says what it refuses). Nothing here writes anything.
 */
import { promisify } from 'node:util';
import type * as Zlib from 'node:zlib';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { BLOCK, RECORD } from './tar.js';
import { TarWalk, tooLarge, type ArchiveBounds } from './tar-walk.js';

export { decodeUtf8 } from './tar.js';
export { tooLarge, type ArchiveBounds } from './tar-walk.js';

// node:zlib loads on the first archive read (about 1 ms): a command that may read one, such as a
// pull answered from the cache, often reads none.
let gunzipAsync: ((bytes: Buffer, options: Zlib.ZlibOptions) => Promise<Buffer>) | undefined;

/**
 * Bounds for archives read in memory. Such an archive is held whole while it is read, so its
 * bound is lower than a directory's; `unpackTgz` streams larger ones (./stream-bounds.ts).
 */
export const DEFAULT_ARCHIVE_BOUNDS: ArchiveBounds = { maxFiles: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

/** A regular file of the archive: its bytes (a view into the inflated tar) and its tar mode. */
export interface TarEntry {
  readonly data: Buffer;
  readonly mode: number;
}

export interface ReadTgz {
  readonly entries: Map<string, TarEntry>;
  readonly diagnostics: Diagnostic[];
}

/** The whole inflated tar through the guarded walk, fed as one piece: each file is a view into it. */
function parseTar(tar: Buffer, bounds: ArchiveBounds): ReadTgz {
  const entries = new Map<string, TarEntry>();
  const walk = new TarWalk(bounds);
  let current: { path: string; mode: number; parts: Buffer[] } | undefined;
  const events = walk.push(tar);
  walk.end();
  for (const e of events) {
    if (e.kind === 'file') current = { path: e.path, mode: e.mode, parts: [] };
    else if (e.kind === 'data') current?.parts.push(e.bytes);
    else if (current !== undefined) {
      const data = current.parts.length === 1 ? (current.parts[0] as Buffer) : Buffer.concat(current.parts);
      entries.set(current.path, { data, mode: current.mode });
      current = undefined;
    }
  }
  return { entries, diagnostics: walk.diagnostics };
}

/** Headers and padding cost at most a few blocks per entry on top of the file bytes. */
export function inflateLimit(bounds: ArchiveBounds): number {
  return bounds.maxTotalBytes + (bounds.maxFiles + 1) * 4 * BLOCK + RECORD;
}

async function inflate(bytes: Buffer, bounds: ArchiveBounds): Promise<{ tar?: Buffer; diagnostic?: Diagnostic }> {
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    return { diagnostic: diag('ARCHIVE_MALFORMED', 'not a gzip file') };
  }
  const limit = inflateLimit(bounds);
  try {
    gunzipAsync ??= promisify((await import('node:zlib')).gunzip);
    return { tar: await gunzipAsync(bytes, { maxOutputLength: limit }) };
  } catch (err) {
    if (err instanceof RangeError || errnoCode(err) === 'ERR_BUFFER_TOO_LARGE') {
      return { diagnostic: tooLarge(bounds, `the archive inflates to more than ${limit} bytes`) };
    }
    return { diagnostic: diag('ARCHIVE_MALFORMED', `gzip data is damaged: ${err instanceof Error ? err.message : String(err)}`) };
  }
}

/** The regular files of a .tgz by path, and every finding about the archive. */
export async function readTgz(bytes: Buffer, bounds: ArchiveBounds = DEFAULT_ARCHIVE_BOUNDS): Promise<ReadTgz> {
  const inflated = await inflate(bytes, bounds);
  if (inflated.tar === undefined) return { entries: new Map(), diagnostics: inflated.diagnostic !== undefined ? [inflated.diagnostic] : [] };
  return parseTar(inflated.tar, bounds);
}
