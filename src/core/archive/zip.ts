/**
 * A deterministic ZIP writer: the same entries give the same bytes on every machine and Node
 * version. Entries are written in the order given (callers sort them), every timestamp is the
 * DOS epoch (1980-01-01 00:00), attributes are Unix regular-file modes 0644/0755 only, names
 * are UTF-8 (flag bit 11), no extra fields, no comments, no directory entries, no data
 * descriptors.
 *
 * Deflate is fflate's, a pure-JS implementation pinned to one version: Node's zlib (Chromium's
 * fork) produces output that differs from canonical zlib and may depend on CPU features, so it
 * cannot promise the same bytes everywhere.
 */
import { crc32 } from 'node:zlib';
import { diag, type Result } from '../diagnostics.js';
import type { FileMode } from '../digest/index.js';
import { InternalError } from '../errors.js';

export interface ZipEntry {
  /** POSIX path inside the archive, relative, without `.` or `..` segments. */
  readonly path: string;
  readonly data: Uint8Array;
  readonly mode: FileMode;
}

export interface ZipEntryInfo {
  readonly path: string;
  readonly size: number;
  readonly compressedSize: number;
  readonly method: 'deflate' | 'store';
}

export interface WrittenZip {
  readonly bytes: Buffer;
  readonly entries: readonly ZipEntryInfo[];
}

const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const FLAG_UTF8 = 0x0800;
const VERSION_NEEDED = 20;
const VERSION_MADE_BY = (3 << 8) | 20; // Unix, spec 2.0: external attributes carry the mode
const MAX_U16 = 0xffff;
const MAX_U32 = 0xffffffff;
const DEFLATE_LEVEL = 9;

function checkPath(path: string): void {
  const bad = path === '' || path.startsWith('/') || path.includes('\\') || path.split('/').some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new InternalError(`zip entry path ${JSON.stringify(path)} is not a clean relative path`);
}

interface CommonFields {
  readonly method: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
  readonly nameLength: number;
}

/** The run of fields the local header and the central directory header share, from `at`. */
function writeCommonFields(buf: Buffer, at: number, f: CommonFields): void {
  buf.writeUInt16LE(VERSION_NEEDED, at);
  buf.writeUInt16LE(FLAG_UTF8, at + 2);
  buf.writeUInt16LE(f.method, at + 4);
  buf.writeUInt16LE(DOS_TIME, at + 6);
  buf.writeUInt16LE(DOS_DATE, at + 8);
  buf.writeUInt32LE(f.crc, at + 10);
  buf.writeUInt32LE(f.compressed, at + 14);
  buf.writeUInt32LE(f.size, at + 18);
  buf.writeUInt16LE(f.nameLength, at + 22);
}

/** What does not fit a ZIP archive without ZIP64 is a finding about the folder, not a failure to read it. */
function tooLarge(message: string): Result<WrittenZip> {
  return { ok: false, diagnostics: [diag('BUNDLE_TOO_LARGE', message)] };
}

/**
 * Writes a ZIP archive of `entries`, in their order; `ok` with the archive, or BUNDLE_TOO_LARGE
 * when it would need ZIP64. fflate is loaded on first use only.
 */
export async function writeZip(entries: readonly ZipEntry[]): Promise<Result<WrittenZip>> {
  const { deflateSync } = await import('fflate');
  if (entries.length > MAX_U16) return tooLarge(`${entries.length} files do not fit a ZIP archive without ZIP64 (at most ${MAX_U16})`);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  const infos: ZipEntryInfo[] = [];
  let offset = 0;
  for (const e of entries) {
    checkPath(e.path);
    const name = Buffer.from(e.path, 'utf8');
    const deflated = deflateSync(e.data, { level: DEFLATE_LEVEL });
    const store = deflated.length >= e.data.length;
    const body = store ? e.data : deflated;
    const method = store ? 0 : 8;
    const crc = crc32(e.data) >>> 0;
    if (e.data.length > MAX_U32 || offset > MAX_U32) return tooLarge(`${e.path} does not fit a ZIP archive without ZIP64 (4 GiB bound)`);
    const fields = { method, crc, compressed: body.length, size: e.data.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommonFields(local, 4, fields); // extra field length (28): 0

    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(VERSION_MADE_BY, 4);
    writeCommonFields(cd, 6, fields); // extra, comment, disk number, internal attributes: 0
    cd.writeUInt32LE(((0o100000 | parseInt(e.mode, 8)) << 16) >>> 0, 38);
    cd.writeUInt32LE(offset, 42);

    parts.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    central.push(cd, name);
    infos.push({ path: e.path, size: e.data.length, compressedSize: body.length, method: store ? 'store' : 'deflate' });
    offset += local.length + name.length + body.length;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  if (offset > MAX_U32 || offset + cdSize > MAX_U32) return tooLarge('the archive exceeds 4 GiB, which ZIP without ZIP64 cannot hold');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return { ok: true, value: { bytes: Buffer.concat([...parts, ...central, end]), entries: infos }, diagnostics: [] };
}
