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
 * And a float instruction that can make a NaN has its result made canonical (NAN_CANONICAL): the
 * engine leaves a NaN's sign and payload to the machine (0/0 is 0xffc00000 on x64, 0x7fc00000 on
 * arm64), and a run's output is promised the same on every machine (docs/formats/wasm.md).
 *
 * The pass runs on the run's thread before the deadline starts, over a module an attacker wrote:
 * it keeps two numbers per stretch of the body at hand and writes the metered code once into one
 * buffer of bounded size (byte-writer.ts), so its time and memory are proportional to the module.
 */
import { ByteWriter } from './byte-writer.js';
import { Reader, skipValType, u32Bytes, WasmFormatError } from './binary.js';
import { OP, readInstruction } from './instructions.js';

/**
 * What a bulk instruction pays for its length (BULK_CHARGE): one unit per 64 bytes of memory
 * (memset and memcpy move 64 bytes in about the time of a few counted instructions), sixteen per
 * table element (measured at about 95 ns each in V8, some thirty counted instructions). The 0xFC
 * sub-opcodes of memory.init, memory.copy and memory.fill; of table.init, table.copy and table.fill.
 */
const BULK_MEMORY = [8, 10, 11];
const BULK_TABLE = [12, 14, 17];

/**
 * The float instructions whose result may be a NaN the machine chooses (arithmetic, rounding,
 * square root, min and max, demotion and promotion; not abs, neg, copysign, loads or
 * reinterpretations, which keep the bits they are given), by result type: the one-byte opcodes,
 * and the SIMD (0xFD) sub-opcodes.
 */
type Float = 'f32' | 'f64' | 'f32x4' | 'f64x2';
const NAN_CANONICAL: ReadonlyMap<number, Float> = new Map([
  ...[0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0xb6].map((op) => [op, 'f32'] as const),
  ...[0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xbb].map((op) => [op, 'f64'] as const),
]);
const NAN_CANONICAL_SIMD: ReadonlyMap<number, Float> = new Map([
  ...[94, 103, 104, 105, 106, 227, 228, 229, 230, 231, 232, 233].map((sub) => [sub, 'f32x4'] as const),
  ...[95, 116, 117, 122, 148, 239, 240, 241, 242, 243, 244, 245].map((sub) => [sub, 'f64x2'] as const),
]);

/** The canonical quiet NaN of each type, little-endian (sign clear, top fraction bit set). */
const F32_NAN = [0x00, 0x00, 0xc0, 0x7f];
const F64_NAN = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f];

/** The charge's bytes around its count, for one fuel global, and the code inserted beside an instruction. */
class Charge {
  private readonly head: number[];
  private readonly tail: number[];
  private readonly bulk: ReadonlyMap<number, readonly number[]>;
  private readonly canonical: Readonly<Record<Float, readonly number[]>>;

  /**
   * `global`: the fuel counter; `scratch`, and the three globals after it: an i32 that holds a
   * bulk instruction's length, an f32, an f64 and a v128 that hold a float result.
   */
  constructor(global: number, scratch: number) {
    const g = u32Bytes(global);
    const [s, f, d, v] = [0, 1, 2, 3].map((i) => u32Bytes(scratch + i)) as [number[], number[], number[], number[]];
    this.head = [0x23, ...g, 0x42];
    this.tail = [0x7d, 0x24, ...g, 0x23, ...g, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b];
    // global.set $s  global.get $fuel  global.get $s  i64.extend_i32_u  (scale)  i64.sub ... end  global.get $s
    const bulk = (scale: readonly number[]): number[] => [0x24, ...s, 0x23, ...g, 0x23, ...s, 0xad, ...scale, ...this.tail, 0x23, ...s];
    const memory = bulk([0x42, 0x06, 0x88]); // i64.const 6, i64.shr_u
    const table = bulk([0x42, 0x04, 0x86]); // i64.const 4, i64.shl
    this.bulk = new Map([...BULK_MEMORY.map((sub) => [sub, memory] as const), ...BULK_TABLE.map((sub) => [sub, table] as const)]);
    // x  canonical  (x == x)  select: x where it is a number, else the canonical NaN (lane by lane: bitselect).
    const pick = (t: number[], nan: readonly number[], eq: readonly number[], sel: readonly number[]): number[] => [0x24, ...t, 0x23, ...t, ...nan, 0x23, ...t, 0x23, ...t, ...eq, ...sel];
    this.canonical = {
      f32: pick(f, [0x43, ...F32_NAN], [0x5b], [0x1b]),
      f64: pick(d, [0x44, ...F64_NAN], [0x61], [0x1b]),
      f32x4: pick(v, [0xfd, 0x0c, ...F32_NAN, ...F32_NAN, ...F32_NAN, ...F32_NAN], [0xfd, 0x41], [0xfd, 0x52]),
      f64x2: pick(v, [0xfd, 0x0c, ...F64_NAN, ...F64_NAN], [0xfd, 0x47], [0xfd, 0x52]),
    };
  }

  /** What goes before the instruction at `at` (a bulk instruction's charge for its length), if anything. */
  before(bytes: Uint8Array, at: number, end: number): readonly number[] | undefined {
    return bytes[at] === 0xfc ? this.bulk.get(new Reader(bytes, at + 1, end).u32()) : undefined;
  }

  /** What goes after the instruction at `at` (its float result made canonical), if anything. */
  after(bytes: Uint8Array, at: number, end: number): readonly number[] | undefined {
    const op = bytes[at] as number;
    const t = op === 0xfd ? NAN_CANONICAL_SIMD.get(new Reader(bytes, at + 1, end).u32()) : NAN_CANONICAL.get(op);
    return t === undefined ? undefined : this.canonical[t];
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
 * the code inserted beside its bulk and float instructions. Reused.
 */
class Stretches {
  starts = new Uint32Array(256);
  counts = new Uint32Array(256);
  n = 0;
  /** Where code is inserted (before the instruction there), and what, in the body's order. */
  sites: number[] = [];
  inserts: (readonly number[])[] = [];

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
  st.sites.length = 0;
  st.inserts.length = 0;
  st.open(code);
  let depth = 1; // the body's own block
  while (depth > 0) {
    const at = r.pos;
    const op = readInstruction(r);
    (st.counts[st.n - 1] as number)++;
    const before = charge.before(bytes, at, end);
    if (before !== undefined) {
      st.sites.push(at);
      st.inserts.push(before);
    }
    const after = charge.after(bytes, at, end);
    if (after !== undefined) {
      st.sites.push(r.pos);
      st.inserts.push(after);
    }
    if (op === OP.block || op === OP.loop || op === OP.if) depth++;
    else if (op === OP.end) depth--;
    const newStretch = op === OP.loop || op === OP.if || op === OP.else || op === OP.brIf || op === OP.br || op === OP.brTable || op === OP.return || op === OP.unreachable || (op === OP.end && depth > 0);
    if (newStretch) st.open(r.pos);
  }
  if (!r.done) throw new WasmFormatError('code after the end of a function body');
  let size = end - start;
  for (let i = 0; i < st.n; i++) if ((st.counts[i] as number) > 0) size += charge.length(st.counts[i] as number);
  for (const insert of st.inserts) size += insert.length;
  out.u32(size);
  out.copy(bytes, start, code);
  let k = 0;
  for (let i = 0; i < st.n; i++) {
    const count = st.counts[i] as number;
    if (count > 0) charge.write(out, count);
    let from = st.starts[i] as number;
    const to = i + 1 < st.n ? (st.starts[i + 1] as number) : end;
    // A bulk instruction pays for its length right before it runs; a float result is made
    // canonical right after. Code inserted where the stretch starts comes after its charge.
    for (; k < st.sites.length && (st.sites[k] as number) < to; k++) {
      const at = st.sites[k] as number;
      out.copy(bytes, from, at);
      out.bytes(st.inserts[k] as readonly number[]);
      from = at;
    }
    out.copy(bytes, from, to);
  }
}

/**
 * The code section's payload with every body metered against global `global` (i64), with globals
 * `scratch` to `scratch + 3` (i32, f32, f64, v128) for the values the inserted code holds; past
 * `max` bytes it throws ByteLimitError (byte-writer.ts).
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
