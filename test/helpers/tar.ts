/**
 * Builds tar archives entry by entry with full control over every header field, to make the
 * hostile archives a reader must refuse (links, devices, escaping paths, bombs).
 */
import { gzipSync } from 'node:zlib';

export interface RawEntry {
  readonly name: string;
  /** Type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' dir, '6' FIFO, 'x' pax, 'g' global pax, 'L' GNU long name. */
  readonly type?: string;
  readonly data?: Buffer | string;
  /** Size written in the header; defaults to the data length. */
  readonly size?: number;
  readonly mode?: number;
  readonly linkname?: string;
  readonly prefix?: string;
  /** Old GNU magic (`ustar  `, GNU tar's default format), whose prefix area holds no prefix. */
  readonly gnu?: boolean;
}

function octal(h: Buffer, offset: number, length: number, value: number): void {
  h.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'latin1');
}

export function header(e: RawEntry): Buffer {
  const h = Buffer.alloc(512);
  h.write(e.name, 0, 100, 'utf8');
  octal(h, 100, 8, e.mode ?? 0o644);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
  octal(h, 124, 12, e.size ?? data.length);
  octal(h, 136, 12, 0);
  h.write(e.type ?? '0', 156, 1, 'latin1');
  if (e.linkname !== undefined) h.write(e.linkname, 157, 100, 'utf8');
  h.write(e.gnu === true ? 'ustar  \u0000' : 'ustar\u000000', 257, 8, 'latin1');
  if (e.prefix !== undefined) h.write(e.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return h;
}

export function paxData(records: Record<string, string>): string {
  return Object.entries(records)
    .map(([k, v]) => {
      const body = ` ${k}=${v}\n`;
      let len = body.length + 1;
      while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
      return `${len}${body}`;
    })
    .join('');
}

/** The uncompressed tar of `entries`, with end marker. */
export function tar(entries: readonly RawEntry[], trailer: Buffer = Buffer.alloc(1024)): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
    parts.push(header(e), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(trailer);
  return Buffer.concat(parts);
}

export function tgz(entries: readonly RawEntry[], trailer?: Buffer): Buffer {
  return gzipSync(tar(entries, trailer));
}

/**
 * A .tgz whose one entry `name` declares and holds `mib` MiB of zeros, written as gzip members
 * of 1 MiB each (a gzip reader inflates members one after another): about a thousandth of its
 * inflated size, built in milliseconds rather than by compressing it all.
 */
export function gzipBomb(name: string, mib: number): Buffer {
  const zeros = gzipSync(Buffer.alloc(1024 * 1024));
  return Buffer.concat([gzipSync(header({ name, size: mib * 1024 * 1024 })), ...Array.from({ length: mib }, () => zeros), gzipSync(Buffer.alloc(1024))]);
}
