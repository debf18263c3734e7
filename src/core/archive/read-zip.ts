/**
 * Reading a `.skill` file (a ZIP holding one top-level folder, ./skill-zip.ts), safely. The
 * archive is attacker-controlled input, so the reader is strict where ZIP readers are lenient,
 * with the same refusals as the .tgz reader (./read-tgz.ts):
 *
 * - the central directory is the only index, and each local header must agree with it (the
 *   name in both): two readers could otherwise list different files;
 * - nothing may follow the end-of-central-directory record but its own comment, and the local
 *   records the central directory lists must fill everything before it, one after another;
 * - unsafe paths (and paths longer than `MAX_PATH_BYTES`), duplicate paths, links, devices,
 *   encrypted entries, ZIP64 and multi-disk archives are refused;
 * - more files, or folders, than `maxFiles` are refused, as the tar walk refuses them;
 * - sizes are bounded before anything is inflated, and each entry is inflated with a hard output
 *   bound of its declared size, then its length and CRC-32 are checked: a decompression bomb
 *   costs at most the bound and is never unpacked.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { PathTree } from './path-tree.js';
import { shownPath, unsafeArchivePath } from './paths.js';
import { decodeUtf8, tooLarge, type ArchiveBounds, type ReadTgz, type TarEntry } from './read-tgz.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;

/**
 * Whether a header whose general purpose flags are `flags` names its entry `name` in bytes other
 * readers decode otherwise: without the UTF-8 flag, Python's `zipfile` (and unzip on most
 * systems) read a name as CP437, so `notes-\xc3\xa9.md` unpacks as another name than the one
 * listed and hashed here. An ASCII name reads the same either way.
 */
function cp437Name(flags: number, name: Buffer): boolean {
  return (flags & FLAG_UTF8) === 0 && name.some((b) => b >= 0x80);
}
const HOST_UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

export interface ReadSkillZip extends ReadTgz {
  /** The archive's one top-level folder (the skill's name), when it has exactly one. */
  readonly folder?: string;
}

/** The end-of-central-directory record: the last one whose comment ends the file exactly. */
function findEnd(bytes: Buffer): number | undefined {
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = bytes.length - EOCD_SIZE; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === EOCD && at + EOCD_SIZE + bytes.readUInt16LE(at + 20) === bytes.length) return at;
  }
  return undefined;
}

/** Info-ZIP's Unicode Path extra field: a second name for the entry, which unzip unpacks it under. */
const UNICODE_PATH = 0x7075;

/**
 * Whether the extra fields `extra` name the entry other than `name` (its raw bytes) through a
 * Unicode Path field (version 1, a CRC-32, the name): skillctl hashes and unpacks the entry by
 * `name`, and Info-ZIP's unzip would write it under the other one.
 */
function renamedByExtra(extra: Buffer, name: Buffer): boolean {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const size = extra.readUInt16LE(i + 2);
    const body = extra.subarray(i + 4, i + 4 + size);
    if (id === UNICODE_PATH && (body.length < 5 || !body.subarray(5).equals(name))) return true;
    i += 4 + size;
  }
  return false;
}

const DESCRIPTOR = 0x08074b50;
const FLAG_DESCRIPTOR = 0x0008;

/** Where the local record at `local` ends (header, name, extra, `compressed` bytes, data descriptor), or undefined when none is there. */
function localEnd(bytes: Buffer, local: number, compressed: number): number | undefined {
  if (local + LOCAL_SIZE > bytes.length || bytes.readUInt32LE(local) !== LOCAL) return undefined;
  const end = local + LOCAL_SIZE + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28) + compressed;
  if ((bytes.readUInt16LE(local + 6) & FLAG_DESCRIPTOR) === 0) return end;
  // A CRC-32 and two sizes, after a signature most writers put first.
  return end + (end + 4 <= bytes.length && bytes.readUInt32LE(end) === DESCRIPTOR ? 16 : 12);
}

/**
 * The first byte before the central directory that no entry's local record covers, or undefined
 * when they cover it all, one after another: a reader that walks local headers (bsdtar reading
 * from a pipe) would find a file there that the central directory does not list.
 */
function uncovered(bytes: Buffer, spans: readonly { local: number; compressed: number }[], centralStart: number): number | undefined {
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.local - b.local)) {
    if (s.local !== at) return at;
    const end = localEnd(bytes, s.local, s.compressed);
    if (end === undefined) return at;
    at = end;
  }
  return at === centralStart ? undefined : at;
}

interface Central {
  readonly path: string;
  readonly method: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
  readonly local: number;
  readonly mode: number;
}

type Step = { readonly entry: Central } | { readonly skip: Diagnostic } | { readonly stop: Diagnostic } | { readonly dir: string };

/** One central directory record at `at` (its length in `next`). */
function centralRecord(bytes: Buffer, at: number): { step: Step; next: number } {
  const malformed = (message: string): { step: Step; next: number } => ({ step: { stop: diag('ARCHIVE_MALFORMED', message) }, next: at });
  if (at + CENTRAL_SIZE > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) return malformed(`no central directory record at byte ${at}`);
  const nameLength = bytes.readUInt16LE(at + 28);
  const next = at + CENTRAL_SIZE + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  if (next > bytes.length) return malformed(`the central directory record at byte ${at} is truncated`);
  const raw = bytes.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
  const extraEnd = at + CENTRAL_SIZE + nameLength + bytes.readUInt16LE(at + 30);
  if (renamedByExtra(bytes.subarray(at + CENTRAL_SIZE + nameLength, extraEnd), raw)) return malformed(`the central directory record at byte ${at} gives its entry a second name (a Unicode Path field), which other readers unpack it under`);
  if (cp437Name(bytes.readUInt16LE(at + 8), raw)) return malformed(`the central directory record at byte ${at} names its entry outside ASCII without the UTF-8 flag, which other readers decode as CP437 (another name)`);
  const name = decodeUtf8(raw);
  const shown = name ?? raw.toString('latin1');
  const unixMode = bytes.readUInt16LE(at + 4) >> 8 === HOST_UNIX ? bytes.readUInt32LE(at + 38) >>> 16 : 0;
  const type = unixMode & S_IFMT;
  const path = name?.replace(/\/$/, '');
  const unsafe = path === undefined ? 'invalid UTF-8 in the path' : unsafeArchivePath(path);
  if (unsafe !== undefined || path === undefined) return { step: { skip: diag('ARCHIVE_PATH_UNSAFE', `entry ${shownPath(shown)}: ${unsafe ?? 'invalid path'}`) }, next };
  if ((bytes.readUInt16LE(at + 8) & FLAG_ENCRYPTED) !== 0) return { step: { skip: diag('ARCHIVE_SPECIAL_ENTRY', 'an encrypted entry cannot be checked', { file: path }) }, next };
  if (name?.endsWith('/') === true || type === S_IFDIR) return { step: { dir: path }, next };
  if (type === S_IFLNK) return { step: { skip: diag('ARCHIVE_LINK', 'symbolic links are not allowed in a bundle', { file: path }) }, next };
  if (type !== 0 && type !== S_IFREG) return { step: { skip: diag('ARCHIVE_SPECIAL_ENTRY', `mode ${type.toString(8)} is not a regular file or directory`, { file: path }) }, next };
  const entry: Central = {
    path,
    method: bytes.readUInt16LE(at + 10),
    crc: bytes.readUInt32LE(at + 16),
    compressed: bytes.readUInt32LE(at + 20),
    size: bytes.readUInt32LE(at + 24),
    local: bytes.readUInt32LE(at + 42),
    mode: unixMode & 0o777,
  };
  if (entry.compressed === 0xffffffff || entry.size === 0xffffffff || entry.local === 0xffffffff) return malformed('ZIP64 archives are not supported');
  return { step: { entry }, next };
}

/** The bytes of one file entry, from its local header, inflated within its declared size and checked. */
function entryData(bytes: Buffer, e: Central, centralStart: number): Buffer | Diagnostic {
  const bad = (message: string): Diagnostic => diag('ARCHIVE_MALFORMED', message, { file: e.path });
  if (e.local + LOCAL_SIZE > centralStart || bytes.readUInt32LE(e.local) !== LOCAL) return bad('no local header where the central directory points');
  const nameLength = bytes.readUInt16LE(e.local + 26);
  const start = e.local + LOCAL_SIZE + nameLength + bytes.readUInt16LE(e.local + 28);
  const rawName = bytes.subarray(e.local + LOCAL_SIZE, e.local + LOCAL_SIZE + nameLength);
  if (decodeUtf8(rawName)?.replace(/\/$/, '') !== e.path) return bad('the local header names another file');
  if (cp437Name(bytes.readUInt16LE(e.local + 6), rawName)) return bad('the local header names the entry outside ASCII without the UTF-8 flag, which other readers decode as CP437 (another name)');
  if (renamedByExtra(bytes.subarray(e.local + LOCAL_SIZE + nameLength, start), rawName)) return bad('the local header gives the entry a second name (a Unicode Path field), which other readers unpack it under');
  // Readers that take the local header's method (unzip, bsdtar) would unpack other bytes: a
  // deflate stream stored per the central directory is hashed as itself and inflated by them.
  const localMethod = bytes.readUInt16LE(e.local + 8);
  if (localMethod !== e.method) return bad(`the local header says compression method ${localMethod}, the central directory ${e.method}: other readers unpack other bytes`);
  if ((bytes.readUInt16LE(e.local + 6) & FLAG_DESCRIPTOR) === 0 && (bytes.readUInt32LE(e.local + 14) !== e.crc || bytes.readUInt32LE(e.local + 18) !== e.compressed || bytes.readUInt32LE(e.local + 22) !== e.size)) {
    return bad('the local header declares another CRC-32 or size than the central directory');
  }
  if (start + e.compressed > centralStart) return bad('the entry runs into the central directory');
  const stored = bytes.subarray(start, start + e.compressed);
  let data: Buffer;
  if (e.method === 0) {
    data = stored;
  } else if (e.method === 8) {
    try {
      data = inflateRawSync(stored, { maxOutputLength: Math.max(e.size, 1) });
    } catch (err) {
      return bad(err instanceof RangeError ? `inflates to more than its declared ${e.size} bytes` : 'deflate data is damaged');
    }
  } else {
    return diag('ARCHIVE_SPECIAL_ENTRY', `compression method ${e.method} is not stored or deflate`, { file: e.path });
  }
  if (data.length !== e.size) return bad(`holds ${data.length} bytes, not the ${e.size} it declares`);
  if (crc32(data) >>> 0 !== e.crc) return bad('CRC-32 does not match');
  return data;
}

/**
 * Each path of `paths` that lies below another path of `paths`, with that path. In sorted order
 * the paths below `a` follow `a/` together, so each is found by one search: a cost in the length
 * of the paths, not in their depth times their length.
 */
function filesUnderFiles(paths: readonly string[]): Map<string, string> {
  const sorted = [...paths].sort();
  const out = new Map<string, string>();
  for (const p of sorted) {
    // What lies below a path that is itself below a file was found with that file: each path is
    // visited once.
    if (out.has(p)) continue;
    const dir = `${p}/`;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as string) < dir) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length && (sorted[i] as string).startsWith(dir); i++) out.set(sorted[i] as string, p);
  }
  return out;
}

/** The entries of a ZIP by path, every finding about it, and nothing written anywhere. */
export function readZip(bytes: Buffer, bounds: ArchiveBounds): ReadTgz {
  const entries = new Map<string, TarEntry>();
  const diagnostics: Diagnostic[] = [];
  const done = (d?: Diagnostic): ReadTgz => {
    if (d !== undefined) diagnostics.push(d);
    return { entries, diagnostics };
  };
  const end = bytes.length >= EOCD_SIZE ? findEnd(bytes) : undefined;
  if (end === undefined) return done(diag('ARCHIVE_MALFORMED', 'not a ZIP file (no end-of-central-directory record ends it)'));
  const count = bytes.readUInt16LE(end + 10);
  const centralSize = bytes.readUInt32LE(end + 12);
  const centralStart = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0 || bytes.readUInt16LE(end + 8) !== count) return done(diag('ARCHIVE_MALFORMED', 'multi-disk archives are not supported'));
  if (count === 0xffff || centralStart === 0xffffffff) return done(diag('ARCHIVE_MALFORMED', 'ZIP64 archives are not supported'));
  if (centralStart + centralSize !== end) return done(diag('ARCHIVE_MALFORMED', 'the central directory does not end where the end record begins'));
  if (count > bounds.maxFiles) return done(tooLarge(bounds, `more than ${bounds.maxFiles} entries`));
  const files: Central[] = [];
  const dirs = new Set<string>();
  const spans: { local: number; compressed: number }[] = [];
  let total = 0;
  let at = centralStart;
  for (let i = 0; i < count; i++) {
    const { step, next } = centralRecord(bytes, at);
    if ('stop' in step) return done(step.stop);
    spans.push({ local: bytes.readUInt32LE(at + 42), compressed: bytes.readUInt32LE(at + 20) });
    at = next;
    if ('skip' in step) diagnostics.push(step.skip);
    else if ('dir' in step) dirs.add(step.dir);
    else {
      total += step.entry.size;
      if (total > bounds.maxTotalBytes) return done(tooLarge(bounds, `the entries declare more than ${bounds.maxTotalBytes} bytes`));
      files.push(step.entry);
    }
  }
  if (at !== end) return done(diag('ARCHIVE_MALFORMED', 'the central directory holds more than its entry count'));
  const gap = uncovered(bytes, spans, centralStart);
  if (gap !== undefined) return done(diag('ARCHIVE_MALFORMED', `the bytes at ${gap} belong to no entry of the central directory: a reader walking local headers would find another file there`));
  const under = filesUnderFiles(files.map((e) => e.path));
  // Only to count the folders the files name: their collisions are judged by `under` and `entries`.
  const folders = new PathTree(bounds.maxFiles);
  for (const e of files) {
    if (entries.has(e.path) || dirs.has(e.path)) {
      diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', 'the path occurs more than once', { file: e.path }));
      continue;
    }
    // `a` and `a/b` both files: no folder holds them, so what such a listing's digest covers is
    // nothing an unpacking or a checkout makes (the tar walk refuses the same).
    const folder = under.get(e.path);
    if (folder !== undefined) {
      diagnostics.push(diag('ARCHIVE_DUPLICATE_ENTRY', `${folder} is a file and also a directory`, { file: e.path }));
      continue;
    }
    if (folders.place(e.path).kind === 'too-many-folders') return done(tooLarge(bounds, `the paths name more than ${bounds.maxFiles} folders`));
    const data = entryData(bytes, e, centralStart);
    if (!Buffer.isBuffer(data)) diagnostics.push(data);
    else entries.set(e.path, { data, mode: 0o100000 | (e.mode === 0 ? 0o644 : e.mode) });
  }
  return { entries, diagnostics };
}

/**
 * A `.skill` file: its one top-level folder's files, by their path inside that folder. Entries
 * beside the folder, or a second folder, are a finding: the archive is not one skill.
 */
export function readSkillZip(bytes: Buffer, bounds: ArchiveBounds): ReadSkillZip {
  const { entries, diagnostics } = readZip(bytes, bounds);
  const tops = new Set([...entries.keys()].map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  if (tops.size !== 1 || tops.has('')) {
    const why = entries.size === 0 ? 'the .skill file holds no files' : 'a .skill file holds exactly one top-level folder, named after the skill, and nothing beside it';
    if (!hasErrors(diagnostics)) diagnostics.push(diag('ARCHIVE_MALFORMED', why));
    return { entries: new Map(), diagnostics };
  }
  const folder = [...tops][0] as string;
  const inside = new Map<string, TarEntry>();
  for (const [path, e] of entries) inside.set(path.slice(folder.length + 1), e);
  return { entries: inside, diagnostics, folder };
}
