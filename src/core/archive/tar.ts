/**
 * The tar format, both ways: the deterministic headers `pack` writes, and a strict parser of the
 * headers an archive may contain (POSIX ustar, pax extended headers, GNU long names).
 *
 * What pack writes is what `tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner
 * --mtime=@0 --no-recursion` writes for the same file list (a test compares the bytes): uid/gid 0,
 * no user or group names, mtime 0, mode 0644 or 0755, a 10240-byte record at the end.
 */
import type { FileMode } from '../digest/index.js';

export const BLOCK = 512;
/** GNU tar's default record: 20 blocks. The archive is padded to a whole record. */
export const RECORD = 20 * BLOCK;
/** The largest size the 11 octal digits of a ustar header can hold. */
export const USTAR_MAX_SIZE = 0o77777777777;

const NAME_MAX = 100;
const PREFIX_MAX = 155;

function writeString(h: Buffer, offset: number, length: number, value: Buffer): void {
  value.copy(h, offset, 0, Math.min(length, value.length));
}

/** Octal, zero-padded to `length - 1` digits, NUL-terminated: GNU tar's form for these fields. */
function writeOctal(h: Buffer, offset: number, length: number, value: number): void {
  h.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'latin1');
}

/**
 * Splits a path into ustar `prefix` and `name` the way GNU tar does: at the last slash that
 * keeps the prefix within 155 bytes. Undefined when no split fits (a pax header is needed).
 */
export function splitUstarPath(path: Buffer): { prefix: Buffer; name: Buffer } | undefined {
  if (path.length <= NAME_MAX) return { prefix: Buffer.alloc(0), name: path };
  let length = Math.min(path.length, PREFIX_MAX + 1);
  if (length === path.length && path[length - 1] === 0x2f) length--;
  let i = length - 1;
  while (i > 0 && path[i] !== 0x2f) i--;
  if (i === 0) return undefined;
  const name = path.subarray(i + 1);
  if (name.length === 0 || name.length > NAME_MAX) return undefined;
  return { prefix: path.subarray(0, i), name };
}

function checksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] as number);
  return sum;
}

function ustarHeader(name: Buffer, prefix: Buffer, size: number, mode: number, type: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  writeString(h, 0, NAME_MAX, name);
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  writeOctal(h, 124, 12, size);
  writeOctal(h, 136, 12, 0);
  h.write(type, 156, 1, 'latin1');
  h.write('ustar\u000000', 257, 8, 'latin1');
  writeOctal(h, 329, 8, 0);
  writeOctal(h, 337, 8, 0);
  writeString(h, 345, PREFIX_MAX, prefix);
  // GNU tar's form: six octal digits, NUL, space.
  h.write(checksum(h).toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return h;
}

/** One pax record: `<length> <key>=<value>\n`, where length counts the whole record. */
function paxRecord(key: string, value: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(` ${key}=`, 'utf8'), value, Buffer.from('\n')]);
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len = String(len).length + body.length;
  return Buffer.concat([Buffer.from(String(len), 'latin1'), body]);
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/**
 * The header block(s) of a regular file: ustar when the path fits, else a pax extended header
 * carrying the full path (named `PaxHeaders/<name>` so it is stable) followed by a ustar header.
 */
export function fileHeader(path: string, size: number, mode: FileMode): Buffer {
  if (size > USTAR_MAX_SIZE) throw new RangeError(`file ${path} is larger than a tar header can describe`);
  const bytes = Buffer.from(path, 'utf8');
  const numeric = mode === '0755' ? 0o755 : 0o644;
  const split = splitUstarPath(bytes);
  if (split !== undefined) return ustarHeader(split.name, split.prefix, size, numeric, '0');
  const record = paxRecord('path', bytes);
  const base = bytes.subarray(bytes.lastIndexOf(0x2f) + 1).subarray(0, NAME_MAX - 'PaxHeaders/'.length);
  const pax = ustarHeader(Buffer.concat([Buffer.from('PaxHeaders/'), base]), Buffer.alloc(0), record.length, 0o644, 'x');
  const shortName = bytes.subarray(Math.max(0, bytes.length - NAME_MAX));
  return Buffer.concat([pax, record, Buffer.alloc(padding(record.length)), ustarHeader(shortName, Buffer.alloc(0), size, numeric, '0')]);
}

/** Zero bytes after `size` bytes of content, to the next block. */
export function contentPadding(size: number): Buffer {
  return Buffer.alloc(padding(size));
}

/** The end-of-archive marker (two zero blocks) plus zeros up to a whole record. */
export function archiveTrailer(written: number): Buffer {
  const end = written + 2 * BLOCK;
  return Buffer.alloc(2 * BLOCK + ((RECORD - (end % RECORD)) % RECORD));
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface RawHeader {
  /** Name as stored (prefix joined with name), raw bytes. */
  readonly path: Buffer;
  readonly linkpath: Buffer;
  readonly mode: number;
  readonly size: number;
  readonly type: string;
}

export type HeaderParse = { readonly header: RawHeader } | { readonly end: true } | { readonly error: string };

function field(h: Buffer, offset: number, length: number): Buffer {
  const f = h.subarray(offset, offset + length);
  const nul = f.indexOf(0);
  return nul === -1 ? f : f.subarray(0, nul);
}

/** An octal number field; base-256 (GNU binary) sizes are refused: nothing legitimate needs them here. */
function octal(h: Buffer, offset: number, length: number): number | undefined {
  const text = h.toString('latin1', offset, offset + length).replace(/[\0 ]+$/, '').replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) return undefined;
  const n = parseInt(text, 8);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Parses one 512-byte header block. Two zero blocks end the archive; the caller checks the second. */
export function parseHeader(h: Buffer): HeaderParse {
  if (h.every((b) => b === 0)) return { end: true };
  const stored = octal(h, 148, 8);
  if (stored === undefined || stored !== checksum(h)) return { error: 'header checksum does not match' };
  const magic = h.toString('latin1', 257, 263);
  const ustar = magic === 'ustar\u0000' || magic === 'ustar ';
  if (!ustar) return { error: 'not a ustar or GNU tar header' };
  const size = octal(h, 124, 12);
  const mode = octal(h, 100, 8);
  if (size === undefined || mode === undefined) return { error: 'size or mode field is not an octal number' };
  const name = field(h, 0, NAME_MAX);
  // The GNU format uses the prefix area for other data (times of incremental dumps); only POSIX
  // ustar has a prefix. Python's tarfile takes that area as a prefix whatever the magic, so
  // anything there names another path to it than to GNU tar and this reader.
  if (magic !== 'ustar\u0000' && field(h, 345, PREFIX_MAX).length > 0) return { error: 'a GNU header holds data where Python\'s tarfile reads a path prefix' };
  const prefix = magic === 'ustar\u0000' ? field(h, 345, PREFIX_MAX) : Buffer.alloc(0);
  const path = prefix.length > 0 ? Buffer.concat([prefix, Buffer.from('/'), name]) : name;
  const typeByte = h[156] as number;
  const type = typeByte === 0 ? '0' : String.fromCharCode(typeByte);
  return { header: { path, linkpath: field(h, 157, 100), mode, size, type } };
}

/** Parses pax extended-header records. Undefined when they are malformed. */
export function parsePax(data: Buffer): Map<string, Buffer> | undefined {
  const out = new Map<string, Buffer>();
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space === -1) return undefined;
    const lenText = data.toString('latin1', i, space);
    if (!/^[1-9][0-9]*$/.test(lenText)) return undefined;
    const len = Number(lenText);
    const end = i + len;
    if (end > data.length || data[end - 1] !== 0x0a) return undefined;
    const record = data.subarray(space + 1, end - 1);
    const eq = record.indexOf(0x3d);
    if (eq <= 0) return undefined;
    out.set(record.toString('utf8', 0, eq), record.subarray(eq + 1));
    i = end;
  }
  return out;
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

/**
 * pax keys of sparse files. GNU tar, libarchive and Python's tarfile unpack an entry holding
 * `GNU.sparse.*` under its `GNU.sparse.name`, its bytes read through a sparse map; libarchive
 * pads or cuts one to its `SCHILY.realsize` (star's and Solaris' sparse files): another file
 * than the one this walk hashes and unpacks.
 */
export function isSparseKey(key: string): boolean {
  return key.startsWith('GNU.sparse.') || key === 'SCHILY.realsize' || key === 'SUN.holesdata';
}
