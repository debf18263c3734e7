/**
 * Reading a .tgz, safely. The archive is attacker-controlled input: every entry is checked before
 * it is listed, and nothing here writes anything.
 *
 * Refused: absolute paths, `.`/`..` segments, backslashes and control characters (path escape
 * and confusion), symbolic and hard links (escape at extraction time), devices, FIFOs and sparse
 * files, duplicate paths (two readers could pick different copies), more than `maxFiles` entries
 * or `maxTotalBytes` unpacked (the gzip stream is inflated with a hard output bound, so a
 * decompression bomb costs at most that much memory and is never unpacked), and any data after
 * the end-of-archive marker that is not zero padding.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { unsafeArchivePath } from './paths.js';
import { BLOCK, parseHeader, parsePax, RECORD } from './tar.js';

const gunzipAsync = promisify(gunzip);

/** How much an archive may hold: entries, and bytes once unpacked. */
export interface ArchiveBounds {
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

/**
 * Bounds for archives. An archive is held in memory while it is read, so its bound is lower than
 * a directory's; a larger bundle can still be pinned as a directory.
 */
export const DEFAULT_ARCHIVE_BOUNDS: ArchiveBounds = { maxFiles: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

/** A regular file of the archive: its bytes (a view into the inflated tar) and its tar mode. */
export interface TarEntry {
  readonly data: Buffer;
  readonly mode: number;
}

const TEXT = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8, or undefined: a name that is not valid UTF-8 could not be reopened by its decoded form. */
export function decodeUtf8(raw: Buffer): string | undefined {
  try {
    return TEXT.decode(raw);
  } catch {
    return undefined;
  }
}

export interface ReadTgz {
  readonly entries: Map<string, TarEntry>;
  readonly diagnostics: Diagnostic[];
}

export function tooLarge(bounds: ArchiveBounds, what: string): Diagnostic {
  return diag('ARCHIVE_TOO_LARGE', `${what}; the bounds are ${bounds.maxFiles} entries and ${bounds.maxTotalBytes} bytes unpacked`, {
    hint: 'a larger bundle can be pinned as a directory',
  });
}

/** Walks the tar blocks. Structural damage stops the walk; a bad entry is reported and skipped. */
function parseTar(tar: Buffer, bounds: ArchiveBounds): ReadTgz {
  const entries = new Map<string, TarEntry>();
  const dirs = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const malformed = (message: string): ReadTgz => {
    diagnostics.push(diag('ARCHIVE_MALFORMED', message));
    return { entries, diagnostics };
  };
  let pax: Map<string, Buffer> | undefined;
  let longName: Buffer | undefined;
  let count = 0;
  let total = 0;
  let off = 0;
  for (;;) {
    if (off + BLOCK > tar.length) return malformed('the archive ends without an end-of-archive marker');
    const parsed = parseHeader(tar.subarray(off, off + BLOCK));
    if ('end' in parsed) {
      // Anything after the marker but zero padding would be invisible to this reader and
      // visible to another: refuse it.
      if (!tar.subarray(off).every((b) => b === 0)) return malformed('data after the end-of-archive marker');
      break;
    }
    if ('error' in parsed) return malformed(`header at byte ${off}: ${parsed.error}`);
    const h = parsed.header;
    const paxSize = pax?.get('size');
    const size = paxSize !== undefined && /^[0-9]+$/.test(paxSize.toString('latin1')) ? Number(paxSize.toString('latin1')) : h.size;
    if (size > bounds.maxTotalBytes - total) {
      diagnostics.push(tooLarge(bounds, `an entry declares ${size} bytes`));
      return { entries, diagnostics };
    }
    const start = off + BLOCK;
    const end = start + size;
    if (end > tar.length) return malformed(`entry at byte ${off} is truncated`);
    const data = tar.subarray(start, end);
    off = start + Math.ceil(size / BLOCK) * BLOCK;
    if (h.type === 'x') {
      pax = parsePax(data);
      if (pax === undefined) return malformed('malformed pax extended header');
      continue;
    }
    if (h.type === 'g') {
      const keys = parsePax(data);
      if (keys === undefined) return malformed('malformed pax global header');
      // `git archive` writes a global header holding only the commit id; anything else would
      // change how later entries are read.
      if ([...keys.keys()].some((k) => k !== 'comment')) {
        diagnostics.push(diag('ARCHIVE_SPECIAL_ENTRY', 'a pax global header sets fields for later entries'));
      }
      continue;
    }
    if (h.type === 'L' || h.type === 'K') {
      if (h.type === 'L') longName = data.subarray(0, data.indexOf(0) === -1 ? data.length : data.indexOf(0));
      continue;
    }
    const rawPath = pax?.get('path') ?? longName ?? h.path;
    const hasLinkpath = pax?.has('linkpath') === true;
    pax = undefined;
    longName = undefined;
    if (++count > bounds.maxFiles) {
      diagnostics.push(tooLarge(bounds, `more than ${bounds.maxFiles} entries`));
      return { entries, diagnostics };
    }
    let path = decodeUtf8(rawPath);
    const shown = path ?? rawPath.toString('latin1');
    if (path !== undefined) {
      while (path.startsWith('./')) path = path.slice(2);
      if (h.type === '5') path = path.replace(/\/+$/, '');
    }
    if (h.type === '5' && path === '') continue; // the archive root itself
    const unsafe = path === undefined ? 'invalid UTF-8 in the path' : unsafeArchivePath(path);
    if (unsafe !== undefined || path === undefined) {
      // Located at the archive, not at the entry's path: joined to the archive's name, `../x` would name some other file.
      diagnostics.push(diag('ARCHIVE_PATH_UNSAFE', `entry ${JSON.stringify(shown)}: ${unsafe ?? 'invalid path'}`));
      continue;
    }
    switch (h.type) {
      case '0':
      case '7':
        if (hasLinkpath) {
          diagnostics.push(diag('ARCHIVE_LINK', 'a regular-file entry carries a link target', { file: path }));
          continue;
        }
        if (entries.has(path) || dirs.has(path)) {
          diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path occurs more than once', { file: path }));
          continue;
        }
        total += size;
        entries.set(path, { data, mode: h.mode });
        continue;
      case '5':
        if (entries.has(path)) diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path is both a file and a directory', { file: path }));
        dirs.add(path);
        continue;
      case '1':
      case '2':
        diagnostics.push(diag('ARCHIVE_LINK', `${h.type === '1' ? 'hard' : 'symbolic'} links are not allowed in a bundle`, { file: path }));
        continue;
      default:
        diagnostics.push(
          diag('ARCHIVE_SPECIAL_ENTRY', `entry type ${JSON.stringify(h.type)} is not a regular file or directory`, { file: path }),
        );
    }
  }
  for (const path of entries.keys()) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      if (entries.has(path.slice(0, slash))) {
        diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', `${path.slice(0, slash)} is a file and also a directory`, { file: path }));
      }
    }
  }
  return { entries, diagnostics };
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
