/**
 * WebAssembly binaries edited or built by hand, for modules an assembler will not write: a module
 * whose code names an index it does not declare, or an encoding (WasmGC's reference types) the
 * engine in use may not accept. Only what the tests need of the binary format.
 */
import { u32Bytes } from '../../src/core/run/wasm/binary.js';

/** An unsigned LEB128 number. */
export const u32 = u32Bytes;

/** A section: its id, its size, its payload. */
export function section(id: number, payload: readonly number[]): number[] {
  return [id, ...u32(payload.length), ...payload];
}

/** A vector: its length, then its items. */
export function vec(items: readonly (readonly number[])[]): number[] {
  return [...u32(items.length), ...items.flat()];
}

/** A name as the binary format writes it. */
export function name(text: string): number[] {
  const b = [...Buffer.from(text, 'utf8')];
  return [...u32(b.length), ...b];
}

/** A module of the given sections, after the magic number and version. */
export function module(...sections: readonly (readonly number[])[]): Uint8Array {
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...sections.flat()]);
}

/** The module without its sections of id `id` (the others byte for byte). */
export function withoutSection(bytes: Uint8Array, id: number): Uint8Array {
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  let p = 8;
  while (p < bytes.length) {
    const start = p;
    const sid = bytes[p++] as number;
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[p++] as number;
      size += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
    }
    p += size;
    if (sid !== id) parts.push(bytes.subarray(start, p));
  }
  return Uint8Array.from(Buffer.concat(parts));
}
