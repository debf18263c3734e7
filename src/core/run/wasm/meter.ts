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
 * The pass runs on the run's thread before the deadline starts, over a module an attacker wrote:
 * it keeps two numbers per stretch of the body at hand and writes the metered code once into one
 * buffer of bounded size (byte-writer.ts), so its time and memory are proportional to the module.
 */
import { ByteWriter } from './byte-writer.js';
import { Reader, skipValType, u32Bytes, WasmFormatError } from './binary.js';
import { OP, readInstruction } from './instructions.js';

/** The charge's bytes around its count, for one fuel global. */
class Charge {
  private readonly head: number[];
  private readonly tail: number[];

  constructor(global: number) {
    const g = u32Bytes(global);
    this.head = [0x23, ...g, 0x42];
    this.tail = [0x7d, 0x24, ...g, 0x23, ...g, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b];
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

/** The stretches of one body: where each starts in the module, and its instruction count. Reused. */
class Stretches {
  starts = new Uint32Array(256);
  counts = new Uint32Array(256);
  n = 0;

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
  st.open(code);
  let depth = 1; // the body's own block
  while (depth > 0) {
    const op = readInstruction(r);
    (st.counts[st.n - 1] as number)++;
    if (op === OP.block || op === OP.loop || op === OP.if) depth++;
    else if (op === OP.end) depth--;
    const newStretch = op === OP.loop || op === OP.if || op === OP.else || op === OP.brIf || op === OP.br || op === OP.brTable || op === OP.return || op === OP.unreachable || (op === OP.end && depth > 0);
    if (newStretch) st.open(r.pos);
  }
  if (!r.done) throw new WasmFormatError('code after the end of a function body');
  let size = end - start;
  for (let i = 0; i < st.n; i++) if ((st.counts[i] as number) > 0) size += charge.length(st.counts[i] as number);
  out.u32(size);
  out.copy(bytes, start, code);
  for (let i = 0; i < st.n; i++) {
    const count = st.counts[i] as number;
    if (count > 0) charge.write(out, count);
    out.copy(bytes, st.starts[i] as number, i + 1 < st.n ? (st.starts[i + 1] as number) : end);
  }
}

/**
 * The code section's payload with every body metered against global `global`; past `max` bytes
 * it throws ByteLimitError (byte-writer.ts).
 */
export function meterCode(bytes: Uint8Array, start: number, end: number, global: number, max: number): Uint8Array {
  const r = new Reader(bytes, start, end);
  const n = r.u32();
  // Ordinary code grows by about four fifths (docs/formats/wasm.md): room for twice the section.
  const out = new ByteWriter(2 * (end - start) + 16, max);
  out.u32(n);
  const charge = new Charge(global);
  const stretches = new Stretches();
  for (let i = 0; i < n; i++) {
    const size = r.u32();
    const bodyStart = r.pos;
    r.skip(size);
    meterBody(bytes, bodyStart, r.pos, charge, stretches, out);
  }
  return out.result();
}
