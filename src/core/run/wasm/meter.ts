/**
 * Fuel: a deterministic instruction budget, counted by the module itself. Each function body is
 * cut into straight-line stretches (a new one starts at the function's entry and after `loop`,
 * `if`, `else`, `end`, `br_if` and the unconditional branches), and at the head of each stretch
 * the pass inserts a charge of the number of instructions in it:
 *
 *     global.get $fuel  i64.const N  i64.sub  global.set $fuel
 *     global.get $fuel  i64.const 0  i64.lt_s  if  unreachable  end
 *
 * A loop pays on every iteration (its body's head is inside the loop), a call is paid by the
 * callee's own charges, and a stretch is charged whole on entry: the module stops at the first
 * stretch it cannot pay for, at the same instruction on every machine and every run. The host
 * tells an exhausted budget from the guest's own `unreachable` by the counter, which is negative
 * only after a failed charge. Cost: 15 to 20 bytes and ten cheap instructions per stretch
 * (docs/formats/wasm.md, docs/performance.md).
 *
 * An instruction whose work is its length operand (memory.fill, memory.copy, memory.init;
 * table.fill, table.copy, table.init) pays for that length too, just before it runs: counted as
 * one instruction, a loop of `memory.fill` of 8 MiB used 0.3% of a 10,000,000 budget in 4 s, and
 * the whole budget would have held the thread ten minutes. The length is on top of the stack; a
 * second new global keeps it while the charge is paid (BULK_CHARGE).
 *
 * The pass runs on the run's thread before the deadline starts, over a module an attacker wrote:
 * it keeps two numbers per stretch of the body at hand and writes the metered code once into one
 * buffer of bounded size (byte-writer.ts), so its time and memory are proportional to the module.
 */
import { ByteWriter } from './byte-writer.js';
import { Reader, skipValType, u32Bytes, WasmFormatError } from './binary.js';
import { OP, readInstruction } from './instructions.js';

/**
 * What a bulk instruction pays for its length: one unit per 64 bytes of memory (memset and memcpy
 * move 64 bytes in about the time of a few counted instructions), sixteen per table element
 * (measured at about 95 ns each in V8, some thirty counted instructions). The 0xFC sub-opcodes.
 */
const BULK_CHARGE: ReadonlyMap<number, readonly number[]> = new Map([
  [8, [0x42, 0x06, 0x88]], // memory.init: i64.const 6, i64.shr_u
  [10, [0x42, 0x06, 0x88]], // memory.copy
  [11, [0x42, 0x06, 0x88]], // memory.fill
  [12, [0x42, 0x04, 0x86]], // table.init: i64.const 4, i64.shl
  [14, [0x42, 0x04, 0x86]], // table.copy
  [17, [0x42, 0x04, 0x86]], // table.fill
]);

/** The bulk instruction's charge, or undefined for any other; `at` is the instruction's first byte. */
function bulkCharge(bytes: Uint8Array, at: number, end: number): readonly number[] | undefined {
  if (bytes[at] !== 0xfc) return undefined;
  return BULK_CHARGE.get(new Reader(bytes, at + 1, end).u32());
}

/** The charge's bytes around its count, for one fuel global. */
class Charge {
  private readonly head: number[];
  private readonly tail: number[];
  private readonly bulkHead: number[];
  private readonly bulkTail: number[];

  /** `global`: the fuel counter; `scratch`: an i32 global that holds a bulk instruction's length. */
  constructor(global: number, scratch: number) {
    const g = u32Bytes(global);
    const s = u32Bytes(scratch);
    this.head = [0x23, ...g, 0x42];
    this.tail = [0x7d, 0x24, ...g, 0x23, ...g, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b];
    // global.set $s  global.get $fuel  global.get $s  i64.extend_i32_u  (scale)  i64.sub ... end  global.get $s
    this.bulkHead = [0x24, ...s, 0x23, ...g, 0x23, ...s, 0xad];
    this.bulkTail = [...this.tail, 0x23, ...s];
  }

  bulkLength(scale: readonly number[]): number {
    return this.bulkHead.length + scale.length + this.bulkTail.length;
  }

  /** The charge for a bulk instruction's length, which is on top of the stack and is left there. */
  writeBulk(out: ByteWriter, scale: readonly number[]): void {
    out.bytes(this.bulkHead);
    out.bytes(scale);
    out.bytes(this.bulkTail);
  }

  length(count: number): number {
    return this.head.length + s64Length(count) + this.tail.length;
  }

  write(out: ByteWriter, count: number): void {
    out.bytes(this.head);
    // i64.const's signed LEB128 of a non-negative count: groups of 7 bits, until bit 6 of the last is clear.
    let v = count;
    for (;;) {
      const b = v % 128;
      v = Math.floor(v / 128);
      const done = v === 0 && (b & 0x40) === 0;
      out.byte(done ? b : b | 0x80);
      if (done) break;
    }
    out.bytes(this.tail);
  }
}

function s64Length(count: number): number {
  let n = 1;
  for (let v = count; v >= 64; v = Math.floor(v / 128)) n++;
  return n;
}

/**
 * The stretches of one body: where each starts in the module, and its instruction count; and
 * where each bulk instruction is. Reused.
 */
class Stretches {
  starts = new Uint32Array(256);
  counts = new Uint32Array(256);
  n = 0;
  bulk: number[] = [];

  open(at: number): void {
    if (this.n === this.starts.length) {
      const starts = new Uint32Array(this.n * 2);
      const counts = new Uint32Array(this.n * 2);
      starts.set(this.starts);
      counts.set(this.counts);
      this.starts = starts;
      this.counts = counts;
    }
    this.starts[this.n] = at;
    this.counts[this.n] = 0;
    this.n++;
  }
}

/** One function body (locals and expression), written to `out` with its size and charges. */
function meterBody(bytes: Uint8Array, start: number, end: number, charge: Charge, st: Stretches, out: ByteWriter): void {
  const r = new Reader(bytes, start, end);
  const groups = r.u32();
  for (let i = 0; i < groups; i++) {
    r.u32();
    // A value type this decoder reads whole, or refused (binary.ts skipValType: WasmGC's 0x63 and
    // 0x64 carry a heap type after them).
    skipValType(r);
  }
  const code = r.pos;
  st.n = 0;
  st.bulk.length = 0;
  st.open(code);
  let depth = 1; // the body's own block
  while (depth > 0) {
    const at = r.pos;
    const op = readInstruction(r);
    (st.counts[st.n - 1] as number)++;
    if (op === 0xfc && bulkCharge(bytes, at, end) !== undefined) st.bulk.push(at);
    if (op === OP.block || op === OP.loop || op === OP.if) depth++;
    else if (op === OP.end) depth--;
    const newStretch = op === OP.loop || op === OP.if || op === OP.else || op === OP.brIf || op === OP.br || op === OP.brTable || op === OP.return || op === OP.unreachable || (op === OP.end && depth > 0);
    if (newStretch) st.open(r.pos);
  }
  if (!r.done) throw new WasmFormatError('code after the end of a function body');
  let size = end - start;
  for (let i = 0; i < st.n; i++) if ((st.counts[i] as number) > 0) size += charge.length(st.counts[i] as number);
  for (const at of st.bulk) size += charge.bulkLength(bulkCharge(bytes, at, end) as readonly number[]);
  out.u32(size);
  out.copy(bytes, start, code);
  let b = 0;
  for (let i = 0; i < st.n; i++) {
    const count = st.counts[i] as number;
    if (count > 0) charge.write(out, count);
    let from = st.starts[i] as number;
    const to = i + 1 < st.n ? (st.starts[i + 1] as number) : end;
    // Each bulk instruction of the stretch pays for its length right before it runs.
    for (; b < st.bulk.length && (st.bulk[b] as number) < to; b++) {
      const at = st.bulk[b] as number;
      out.copy(bytes, from, at);
      charge.writeBulk(out, bulkCharge(bytes, at, end) as readonly number[]);
      from = at;
    }
    out.copy(bytes, from, to);
  }
}

/**
 * The code section's payload with every body metered against global `global` (i64), and i32
 * global `scratch` for the lengths of bulk instructions; past `max` bytes it throws
 * ByteLimitError (byte-writer.ts).
 */
export function meterCode(bytes: Uint8Array, start: number, end: number, global: number, scratch: number, max: number): Uint8Array {
  const r = new Reader(bytes, start, end);
  const n = r.u32();
  // Ordinary code grows by about four fifths (docs/formats/wasm.md): room for twice the section.
  const out = new ByteWriter(2 * (end - start) + 16, max);
  out.u32(n);
  const charge = new Charge(global, scratch);
  const stretches = new Stretches();
  for (let i = 0; i < n; i++) {
    const size = r.u32();
    const bodyStart = r.pos;
    r.skip(size);
    meterBody(bytes, bodyStart, r.pos, charge, stretches, out);
  }
  return out.result();
}
