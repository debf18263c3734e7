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
 * only after a failed charge. Cost: 14 to 20 bytes and ten cheap instructions per stretch
 * (docs/formats/wasm.md, docs/performance.md).
 */
import { pushAll } from '../../findings.js';
import { Reader, s64Bytes, skipValType, u32Bytes, WasmFormatError } from './binary.js';
import { OP, readInstruction } from './instructions.js';

/** A stretch's head, filled in with its count once the stretch ends. */
interface Charge {
  count: number;
}

function chargeBytes(global: number, count: number): number[] {
  const g = u32Bytes(global);
  return [0x23, ...g, 0x42, ...s64Bytes(count), 0x7d, 0x24, ...g, 0x23, ...g, 0x42, 0x00, 0x53, 0x04, 0x40, 0x00, 0x0b];
}

/** One function body (locals and expression) with its charges inserted. */
function meterBody(bytes: Uint8Array, start: number, end: number, global: number): number[] {
  const r = new Reader(bytes, start, end);
  const groups = r.u32();
  for (let i = 0; i < groups; i++) {
    r.u32();
    // A value type this decoder reads whole, or refused (binary.ts skipValType: WasmGC's 0x63 and
    // 0x64 carry a heap type after them).
    skipValType(r);
  }
  const parts: (Uint8Array | Charge)[] = [bytes.subarray(start, r.pos)];
  let current: Charge = { count: 0 };
  parts.push(current);
  let depth = 1; // the body's own block
  while (depth > 0) {
    const at = r.pos;
    const op = readInstruction(r);
    parts.push(bytes.subarray(at, r.pos));
    current.count++;
    if (op === OP.block || op === OP.loop || op === OP.if) depth++;
    else if (op === OP.end) depth--;
    const newStretch = op === OP.loop || op === OP.if || op === OP.else || op === OP.brIf || op === OP.br || op === OP.brTable || op === OP.return || op === OP.unreachable || (op === OP.end && depth > 0);
    if (newStretch) {
      current = { count: 0 };
      parts.push(current);
    }
  }
  if (!r.done) throw new WasmFormatError('code after the end of a function body');
  const out: number[] = [];
  for (const p of parts) {
    if (p instanceof Uint8Array) for (const b of p) out.push(b);
    else if (p.count > 0) pushAll(out, chargeBytes(global, p.count));
  }
  return out;
}

/** The code section's payload with every body metered against global `global`. */
export function meterCode(bytes: Uint8Array, start: number, end: number, global: number): number[] {
  const r = new Reader(bytes, start, end);
  const n = r.u32();
  const out: number[] = [...u32Bytes(n)];
  for (let i = 0; i < n; i++) {
    const size = r.u32();
    const bodyStart = r.pos;
    r.skip(size);
    const body = meterBody(bytes, bodyStart, r.pos, global);
    pushAll(pushAll(out, u32Bytes(body.length)), body);
  }
  return out;
}
