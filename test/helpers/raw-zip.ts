// A ZIP written field by field, for tests of readers that must refuse hostile archives.
import { crc32, deflateRawSync } from 'node:zlib';

export interface Raw {
  readonly name: string;
  readonly data?: Buffer;
  readonly deflate?: boolean;
  /** Unix mode in the external attributes (default a regular file 0644). */
  readonly mode?: number;
  readonly flags?: number;
  /** Overrides of what the headers declare. */
  readonly size?: number;
  readonly crc?: number;
  readonly localName?: string;
  /** Extra fields, written in the local header and the central record alike (default none). */
  readonly extra?: Buffer;
  /** Written as a local record only, which the central directory does not list. */
  readonly unlisted?: boolean;
  /** The headers that leave out the UTF-8 flag (bit 11), whose names other readers decode as CP437 (default neither). */
  readonly cp437?: 'local' | 'central' | 'both';
  /** What the local header alone declares (method, CRC-32, size), where the central directory says otherwise. */
  readonly localHeader?: { readonly method?: number; readonly crc?: number; readonly size?: number };
}

/** Info-ZIP's Unicode Path extra field for an entry stored as `stored`: the name `name` that unzip unpacks it under. */
export function unicodePathField(stored: string, name: string): Buffer {
  const n = Buffer.from(name);
  const field = Buffer.alloc(9 + n.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + n.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(Buffer.from(stored)) >>> 0, 5);
  n.copy(field, 9);
  return field;
}

/** A ZIP written field by field, so a test can make it lie in exactly one place. */
export function rawZip(files: readonly Raw[], trailer: Buffer = Buffer.alloc(0)): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const data = f.data ?? Buffer.from('x');
    const stored = f.deflate === true ? deflateRawSync(data) : data;
    const name = Buffer.from(f.name);
    const localName = Buffer.from(f.localName ?? f.name);
    const extra = f.extra ?? Buffer.alloc(0);
    const crc = f.crc ?? crc32(data);
    const size = f.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE((f.flags ?? 0) | (f.cp437 === 'local' || f.cp437 === 'both' ? 0 : 0x800), 6);
    local.writeUInt16LE(f.localHeader?.method ?? (f.deflate === true ? 8 : 0), 8);
    local.writeUInt32LE(f.localHeader?.crc ?? crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(f.localHeader?.size ?? size, 22);
    local.writeUInt16LE(localName.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE((f.flags ?? 0) | (f.cp437 === 'central' || f.cp437 === 'both' ? 0 : 0x800), 8);
    central.writeUInt16LE(f.deflate === true ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(((f.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, localName, extra, stored);
    if (f.unlisted !== true) centrals.push(central, name, extra);
    offset += 30 + localName.length + extra.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const listed = files.filter((f) => f.unlisted !== true).length;
  end.writeUInt16LE(listed, 8);
  end.writeUInt16LE(listed, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end, trailer]);
}

