/**
 * The metadata a WASI module sees: timestamps are 0 (the clock is not granted) and inode numbers
 * are derived from the real path, so a run sees the same metadata on every machine.
 */
import { createHash } from 'node:crypto';

/** A stable inode number from the real path: the same on every machine, distinct per path. */
export function inode(real: string): bigint {
  return createHash('sha256').update(real).digest().readBigUInt64LE(0) & 0x7fff_ffff_ffff_ffffn;
}

/** The 64-byte filestat: dev, ino, filetype, nlink, size, and three timestamps (0). */
export function filestat(real: string, filetype: number, size: number): Uint8Array {
  const b = Buffer.alloc(64);
  b.writeBigUInt64LE(inode(real), 8);
  b.writeUInt8(filetype, 16);
  b.writeBigUInt64LE(1n, 24);
  b.writeBigUInt64LE(BigInt(size), 32);
  return b;
}

/** The 24-byte fdstat: filetype, flags, base rights, inheriting rights. */
export function fdstat(filetype: number, flags: number, rights: bigint, inheriting: bigint): Uint8Array {
  const b = Buffer.alloc(24);
  b.writeUInt8(filetype, 0);
  b.writeUInt16LE(flags, 2);
  b.writeBigUInt64LE(rights, 8);
  b.writeBigUInt64LE(inheriting, 16);
  return b;
}
