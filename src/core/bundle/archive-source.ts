/**
 * A bundle read from a .tgz archive, safely. The archive is attacker-controlled input: every
 * entry is checked before it is listed, and nothing is written anywhere unless `extractTo` is
 * called, and then only inside the target directory, into files it creates itself.
 *
 * Refused: absolute paths, `.`/`..` segments, backslashes and control characters (path escape
 * and confusion), symbolic and hard links (escape at extraction time), devices, FIFOs and sparse
 * files, duplicate paths (two readers could pick different copies), more than `maxFiles` entries
 * or `maxTotalBytes` unpacked (the gzip stream is inflated with a hard output bound, so a
 * decompression bomb costs at most that much memory and is never unpacked), and any data after
 * the end-of-archive marker that is not zero padding.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { describeRefusal, readBounded, refusalCode } from '../fs/read-bounded.js';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Ignore } from 'ignore';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { hashStream } from './hash-stream.js';
import { excludedWithAncestors, parseSkillignore, UNPORTABLE_NAME } from './path-filter.js';
import type { BundleBounds, BundleFile, BundleListing, BundleSource } from './source.js';
import { BLOCK, parseHeader, parsePax, RECORD } from './tar.js';
import { makeDirs } from '../fs/make-dirs.js';
import { pushAll } from '../findings.js';

const gunzipAsync = promisify(gunzip);

/**
 * Bounds for archives. An archive is held in memory while it is read, so its bound is lower than
 * a directory's; a larger bundle can still be pinned as a directory.
 */
export const DEFAULT_ARCHIVE_BOUNDS: BundleBounds = { maxFiles: 20_000, maxTotalBytes: 512 * 1024 * 1024 };

export interface ArchiveSource extends BundleSource {
  /** sha256 of the archive file's bytes. */
  readonly archiveDigest: Sha256Digest;
  readonly archiveSize: number;
  /**
   * Writes the listed files under `target`, which must not exist or be an empty directory.
   * Refuses (returns the findings, writes nothing) when the archive had any error.
   */
  extractTo(target: string): Promise<readonly Diagnostic[]>;
}

interface Entry {
  readonly data: Buffer;
  readonly mode: number;
}

const TEXT = new TextDecoder('utf-8', { fatal: true });

/** Why a path from an archive is unsafe, or undefined when it is a clean relative POSIX path. */
export function unsafeArchivePath(path: string): string | undefined {
  if (path === '') return 'empty path';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive-letter path';
  if (UNPORTABLE_NAME.test(path)) return 'backslash, control character or invalid UTF-8 in the path';
  for (const seg of path.split('/')) {
    if (seg === '..') return '`..` segment';
    if (seg === '.') return '`.` segment';
    if (seg === '') return 'empty path segment';
  }
  return undefined;
}

function decodePath(raw: Buffer): string | undefined {
  try {
    return TEXT.decode(raw);
  } catch {
    return undefined;
  }
}

interface Parsed {
  readonly entries: Map<string, Entry>;
  readonly diagnostics: Diagnostic[];
}

function tooLarge(bounds: BundleBounds, what: string): Diagnostic {
  return diag('ARCHIVE_TOO_LARGE', `${what}; the bounds are ${bounds.maxFiles} entries and ${bounds.maxTotalBytes} bytes unpacked`, {
    hint: 'a larger bundle can be pinned as a directory',
  });
}

/** Walks the tar blocks. Structural damage stops the walk; a bad entry is reported and skipped. */
function parseTar(tar: Buffer, bounds: BundleBounds): Parsed {
  const entries = new Map<string, Entry>();
  const dirs = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const malformed = (message: string): Parsed => {
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
    let path = decodePath(rawPath);
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

/**
 * The largest archive (compressed or not) within `bounds`: headers and padding cost at most a
 * few blocks per entry on top of the file bytes.
 */
export function inflateLimit(bounds: BundleBounds = DEFAULT_ARCHIVE_BOUNDS): number {
  return bounds.maxTotalBytes + (bounds.maxFiles + 1) * 4 * BLOCK + RECORD;
}

async function inflate(bytes: Buffer, bounds: BundleBounds): Promise<{ tar?: Buffer; diagnostic?: Diagnostic }> {
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

/** A bundle source over archive bytes already in memory; `location` names it in messages. */
export async function archiveSourceFromBytes(
  bytes: Buffer,
  location: string,
  bounds: BundleBounds = DEFAULT_ARCHIVE_BOUNDS,
): Promise<ArchiveSource> {
  const diagnostics: Diagnostic[] = [];
  let entries = new Map<string, Entry>();
  const inflated = await inflate(bytes, bounds);
  if (inflated.diagnostic !== undefined) diagnostics.push(inflated.diagnostic);
  if (inflated.tar !== undefined) {
    const parsed = parseTar(inflated.tar, bounds);
    entries = parsed.entries;
    pushAll(diagnostics, parsed.diagnostics);
  }
  const ignoreFile = entries.get('.skillignore');
  let ig: Ignore | undefined;
  if (ignoreFile !== undefined) {
    const text = decodePath(ignoreFile.data);
    if (text === undefined) diagnostics.push(diag('BUNDLE_UNREADABLE', '.skillignore is not valid UTF-8', { file: '.skillignore' }));
    else ig = await parseSkillignore(text);
  }
  const files: BundleFile[] = [];
  for (const [path, e] of entries) {
    if (!excludedWithAncestors(path, ig)) files.push({ path, size: e.data.length, mode: modeOf(e.mode) });
  }
  files.sort((a, b) => comparePaths(a.path, b.path));
  const listing: BundleListing = { files, diagnostics };
  const listed = new Set(files.map((f) => f.path));
  const entry = (path: string): Entry => {
    const e = listed.has(path) ? entries.get(path) : undefined;
    if (e === undefined) throw new SkillctlError('INPUT_NOT_FOUND', `${path} is not a file of ${location}`);
    return e;
  };
  return {
    location,
    archiveDigest: sha256(bytes),
    archiveSize: bytes.length,
    list: () => Promise.resolve(listing),
    read: async (path) => Buffer.from(entry(path).data),
    digest: async (path) => sha256(entry(path).data),
    extractTo: (target) => extract(target, listing, entries),
  };
}

async function extract(target: string, listing: BundleListing, entries: ReadonlyMap<string, Entry>): Promise<readonly Diagnostic[]> {
  if (hasErrors(listing.diagnostics)) return listing.diagnostics;
  const root = resolve(target);
  try {
    await mkdir(root, { recursive: false });
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') {
      return [diag('ARCHIVE_TARGET_INVALID', `cannot create ${target}: ${errnoCode(err) ?? String(err)}`, { file: target })];
    }
    let names: string[];
    try {
      names = await readdir(root);
    } catch (e) {
      return [diag('ARCHIVE_TARGET_INVALID', `${target} is not a directory: ${errnoCode(e) ?? String(e)}`, { file: target })];
    }
    if (names.length > 0) return [diag('ARCHIVE_TARGET_INVALID', `${target} is not empty`, { file: target })];
  }
  for (const f of listing.files) {
    const dest = join(root, ...f.path.split('/'));
    // Paths were checked when read; this guards the invariant, not the input.
    if (!dest.startsWith(root + sep)) throw new SkillctlError('ARCHIVE_PATH_UNSAFE', `${f.path} would leave ${target}`);
    const parent = dest.slice(0, dest.lastIndexOf(sep));
    if (parent !== root) await makeDirs(parent, 0o755);
    // `wx`: O_CREAT|O_EXCL never follows a link at the last component and never overwrites.
    const fh = await open(dest, 'wx', f.mode === '0755' ? 0o755 : 0o644);
    try {
      await fh.writeFile((entries.get(f.path) as Entry).data);
    } finally {
      await fh.close();
    }
  }
  return listing.diagnostics;
}

/**
 * Opens the archive at `path`. Throws `SkillctlError` only when the file cannot be read;
 * everything wrong with its content is a diagnostic of `list()`.
 */
export async function openArchive(path: string, bounds: BundleBounds = DEFAULT_ARCHIVE_BOUNDS, label: string = path): Promise<ArchiveSource> {
  // gzip never shrinks data by more than its framing, so a compressed file over the unpacked
  // bound cannot be within it: refused without reading it into memory. A FIFO or a device is
  // refused before it is opened (read-bounded.ts).
  const r = await readBounded(path, { maxBytes: inflateLimit(bounds) });
  if (r.ok) return archiveSourceFromBytes(r.bytes, label, bounds);
  if (r.reason !== 'too-large') throw new SkillctlError(refusalCode(r), describeRefusal(r, label));
  try {
    const listing: BundleListing = { files: [], diagnostics: [tooLarge(bounds, `the archive file is ${r.size} bytes`)] };
    const none = (): Promise<never> => Promise.reject(new SkillctlError('INPUT_NOT_FOUND', `${label} was refused as too large`));
    return {
      location: label,
      archiveDigest: await hashStream(createReadStream(path)),
      archiveSize: r.size,
      list: () => Promise.resolve(listing),
      read: none,
      digest: none,
      extractTo: () => Promise.resolve(listing.diagnostics),
    };
  } catch (err) {
    const code = errnoCode(err);
    throw new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `cannot read ${label}: ${code ?? String(err)}`, { cause: err });
  }
}
