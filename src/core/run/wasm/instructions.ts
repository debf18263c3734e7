/**
 * Decoding one instruction of a function body: its opcode and the length of its immediates, so
 * the metering pass (meter.ts) can walk a body instruction by instruction without mistaking an
 * immediate byte for an opcode. Covers the core spec (2.0) with bulk memory, reference types,
 * multi-value, sign extension, saturating truncation, SIMD and tail calls; anything else (threads,
 * exceptions, GC) is refused, since the host cannot count it, and so is relaxed SIMD, whose
 * results the host cannot promise.
 */
import { skipRefType, skipValType, VALUE_TYPES, WasmFormatError, type Reader } from './binary.js';

/** Control instructions after which straight-line code ends or a new path starts (meter.ts). */
export const OP = { unreachable: 0x00, block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, brTable: 0x0e, return: 0x0f } as const;

/**
 * A block type: empty (0x40), one value type, or a type index (a non-negative s33). A negative
 * one-byte s33 is a value type; one this decoder does not read (WasmGC's 0x63 and 0x64, followed
 * by a heap type) is refused, or the pass would read the heap type as the next instruction.
 */
function blockType(r: Reader): void {
  const b = r.bytes[r.pos];
  if (b === 0x40 || (b !== undefined && VALUE_TYPES.has(b))) {
    r.pos++;
    return;
  }
  const at = r.pos;
  if (r.s33() < 0) throw new WasmFormatError(`block type 0x${(r.bytes[at] ?? 0).toString(16)} is not supported (GC and typed function references cannot be metered)`);
}

function memarg(r: Reader): void {
  const align = r.u32();
  // Bit 6 of the alignment says a memory index follows (multi-memory).
  if ((align & 0x40) !== 0) r.u32();
  r.u32();
}

/**
 * Relaxed SIMD's sub-opcodes (0xFD 0x100 to 0x113: relaxed_swizzle, relaxed_trunc, relaxed_madd
 * and nmadd, relaxed_laneselect, relaxed_min and max, relaxed_q15mulr, relaxed_dot). Each result
 * is the machine's choice (a multiply-add fused or not, what a lane out of range gives), so the
 * same module and input could give another output on another machine, and a wasm run's output is
 * promised the same on every one (docs/formats/wasm.md).
 */
const RELAXED_SIMD = { first: 0x100, last: 0x113 } as const;

/** SIMD (0xFD prefix): the immediates of each sub-opcode. */
function simd(r: Reader): void {
  const sub = r.u32();
  if (sub >= RELAXED_SIMD.first && sub <= RELAXED_SIMD.last) {
    throw new WasmFormatError(`relaxed SIMD instruction 0xfd ${sub} is not supported (its results may differ between machines)`);
  }
  if (sub <= 11 || sub === 92 || sub === 93) return memarg(r);
  if (sub === 12 || sub === 13) return r.skip(16);
  if (sub >= 21 && sub <= 34) return r.skip(1);
  if (sub >= 84 && sub <= 91) {
    memarg(r);
    return r.skip(1);
  }
  if (sub > 275) throw new WasmFormatError(`unknown SIMD instruction 0xfd ${sub}`);
}

/** Bulk memory, table and saturating conversions (0xFC prefix). */
function misc(r: Reader): void {
  const sub = r.u32();
  if (sub <= 7) return;
  switch (sub) {
    case 8: // memory.init data mem
    case 10: // memory.copy mem mem
    case 12: // table.init elem table
    case 14: // table.copy table table
      r.u32();
      r.u32();
      return;
    case 9: // data.drop
    case 11: // memory.fill
    case 13: // elem.drop
    case 15: // table.grow
    case 16: // table.size
    case 17: // table.fill
      r.u32();
      return;
    default:
      throw new WasmFormatError(`unknown instruction 0xfc ${sub}`);
  }
}

/** Reads one instruction at the reader's position; returns its opcode (the prefix for prefixed ones). */
export function readInstruction(r: Reader): number {
  const op = r.byte();
  if (op >= 0x45 && op <= 0xc4) return op; // numeric: no immediates
  if (op >= 0x28 && op <= 0x3e) {
    memarg(r);
    return op;
  }
  switch (op) {
    case 0x00:
    case 0x01:
    case 0x05:
    case 0x0b:
    case 0x0f:
    case 0x1a:
    case 0x1b:
    case 0xd1:
      return op;
    case 0x02:
    case 0x03:
    case 0x04:
      blockType(r);
      return op;
    case 0x0c:
    case 0x0d:
    case 0x10:
    case 0x12:
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
    case 0x25:
    case 0x26:
    case 0x3f:
    case 0x40:
    case 0xd2:
      r.u32();
      return op;
    case 0x0e: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      return op;
    }
    case 0x11:
    case 0x13:
      r.u32();
      r.u32();
      return op;
    case 0x1c: {
      const n = r.u32();
      for (let i = 0; i < n; i++) skipValType(r);
      return op;
    }
    case 0x41:
      r.skipSigned(32);
      return op;
    case 0x42:
      r.skipSigned(64);
      return op;
    case 0x43:
      r.skip(4);
      return op;
    case 0x44:
      r.skip(8);
      return op;
    case 0xd0: // ref.null: a heap type, one byte only for funcref and externref
      skipRefType(r);
      return op;
    case 0xfc:
      misc(r);
      return op;
    case 0xfd:
      simd(r);
      return op;
    default:
      throw new WasmFormatError(`instruction 0x${op.toString(16)} is not supported (threads, exceptions and GC cannot be metered)`);
  }
}
