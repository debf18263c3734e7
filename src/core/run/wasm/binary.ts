/**
 * Just enough of the WebAssembly binary format (core spec, chapter 5) to check a module before it
 * runs and to rewrite it: LEB128 numbers, the section list, and the sections the host rewrites
 * (memories, tables, globals, exports, code). Anything malformed throws `WasmFormatError`; the
 * engine's own validation (WebAssembly.Module) still runs on what comes out.
 */

export class WasmFormatError extends Error {}

export class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) throw new WasmFormatError('unexpected end of the module');
    return this.bytes[this.pos++] as number;
  }

  /** An unsigned LEB128 number of at most 32 bits. */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) throw new WasmFormatError('a u32 is out of range');
        return result;
      }
      shift += 7;
    }
    throw new WasmFormatError('a u32 is longer than 5 bytes');
  }

  /** Skips a signed LEB128 number of at most `bits` bits (the host never needs its value). */
  skipSigned(bits: number): void {
    const max = Math.ceil(bits / 7);
    for (let i = 0; i < max; i++) if ((this.byte() & 0x80) === 0) return;
    throw new WasmFormatError(`an s${bits} is too long`);
  }

  /** A signed LEB128 number of at most 33 bits (a block type's type index), exact in a double. */
  s33(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return (b & 0x40) !== 0 ? result - 2 ** (shift + 7) : result;
    }
    throw new WasmFormatError('an s33 is too long');
  }

  skip(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw new WasmFormatError('unexpected end of the module');
    this.pos += n;
  }

  name(): string {
    const n = this.u32();
    const start = this.pos;
    this.skip(n);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(start, start + n));
    } catch {
      throw new WasmFormatError('a name is not UTF-8');
    }
  }
}

export function u32Bytes(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

/** A signed LEB128 encoding of a (safe) integer, as i64.const takes it. */
export function s64Bytes(value: number): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

export function nameBytes(name: string): number[] {
  const b = new TextEncoder().encode(name);
  return [...u32Bytes(b.length), ...b];
}

/** The value types of i32 and i64, as the binary format writes them. */
export const I32 = 0x7f;
export const I64 = 0x7e;

/** A function type: its parameter and result value types. */
export interface FuncType {
  readonly params: readonly number[];
  readonly results: readonly number[];
}

export interface Section {
  readonly id: number;
  /** Where the section begins: its id byte. */
  readonly header: number;
  /** The payload, without the id and size. */
  readonly start: number;
  readonly end: number;
}

export const MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** The order of known sections in a module (the data count section sits between element and code). */
const ORDER: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };

export function sectionOrder(id: number): number | undefined {
  return ORDER[id];
}

/**
 * The module's known sections, each at most once. Custom sections (id 0) are walked over, not
 * listed: the rewrite copies them as they are, and a module of millions of them must not become
 * millions of objects. An unknown section id is refused (the engine would refuse it too).
 */
export function sections(bytes: Uint8Array): Section[] {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) throw new WasmFormatError('not a WebAssembly 1.0 binary module (bad magic number or version)');
  const r = new Reader(bytes, 8);
  const out: Section[] = [];
  const seen = new Set<number>();
  while (!r.done) {
    const header = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    r.skip(size);
    if (id === 0) continue;
    if (sectionOrder(id) === undefined) throw new WasmFormatError(`unknown section id ${id}`);
    if (seen.has(id)) throw new WasmFormatError(`section ${id} appears twice`);
    seen.add(id);
    out.push({ id, header, start, end: start + size });
  }
  return out;
}

export interface Limits {
  readonly min: number;
  readonly max?: number;
  /** The limits flag byte: bit 0 max present, bit 1 shared, bit 2 64-bit. */
  readonly flags: number;
}

export function readLimits(r: Reader): Limits {
  const flags = r.byte();
  if (flags > 7) throw new WasmFormatError(`unknown limits flag 0x${flags.toString(16)}`);
  const min = r.u32();
  return (flags & 1) !== 0 ? { flags, min, max: r.u32() } : { flags, min };
}

export function limitsBytes(min: number, max: number): number[] {
  return [0x01, ...u32Bytes(min), ...u32Bytes(max)];
}

/** The value types this decoder reads: numbers, v128, funcref and externref, one byte each. */
export const VALUE_TYPES: ReadonlySet<number> = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);
/** The reference types of tables and of `ref.null`. */
export const REF_TYPES: ReadonlySet<number> = new Set([0x70, 0x6f]);

/**
 * Skips a value type (numbers, vectors, references). Anything else is refused rather than read:
 * WasmGC's `(ref null ht)` (0x63) and `(ref ht)` (0x64) are followed by a heap type, which a
 * one-byte read would take for the next field, and the metering pass would lose its step.
 */
export function skipValType(r: Reader): void {
  const t = r.byte();
  if (!VALUE_TYPES.has(t)) throw new WasmFormatError(`value type 0x${t.toString(16)} is not supported (GC and typed function references cannot be metered)`);
}

/** Skips the reference type of `ref.null` or a table: funcref or externref only (see skipValType). */
export function skipRefType(r: Reader): number {
  const t = r.byte();
  if (!REF_TYPES.has(t)) throw new WasmFormatError(`reference type 0x${t.toString(16)} is not supported (GC and typed function references cannot be metered)`);
  return t;
}

/** Skips a constant expression (a global's initial value, a segment's offset) through its `end`. */
export function skipConstExpr(r: Reader): void {
  for (;;) {
    const op = r.byte();
    switch (op) {
      case 0x0b:
        return;
      case 0x41:
        r.skipSigned(32);
        break;
      case 0x42:
        r.skipSigned(64);
        break;
      case 0x43:
        r.skip(4);
        break;
      case 0x44:
        r.skip(8);
        break;
      case 0x23:
      case 0xd2:
        r.u32();
        break;
      case 0xd0:
        skipRefType(r);
        break;
      case 0xfd:
        if (r.u32() !== 12) throw new WasmFormatError('unsupported constant expression');
        r.skip(16);
        break;
      default:
        // Extended constant expressions (i32/i64 add, sub, mul).
        if (![0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e].includes(op)) throw new WasmFormatError(`unsupported constant expression opcode 0x${op.toString(16)}`);
    }
  }
}
