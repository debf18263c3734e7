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
    const crc = f.crc ?? crc32(data);
    const size = f.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE((f.flags ?? 0) | 0x800, 6);
    local.writeUInt16LE(f.deflate === true ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE((f.flags ?? 0) | 0x800, 8);
    central.writeUInt16LE(f.deflate === true ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((f.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, localName, stored);
    centrals.push(central, name);
    offset += 30 + localName.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end, trailer]);
}

