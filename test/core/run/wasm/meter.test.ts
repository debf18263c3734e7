// The metering pass (src/core/run/wasm/meter.ts) and the bounds on what it is given and makes
// (module.ts): each stretch is charged exactly its instruction count, whatever the length of the
// count's encoding; a module past the file bound, or whose metered code would pass its bound, is
// refused; custom sections are carried over as they are, however many.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteLimitError, ByteWriter } from '../../../../src/core/run/wasm/byte-writer.js';
import { wasmApi } from '../../../../src/core/run/wasm/engine-types.js';
import { MAX_METERED_CODE_BYTES, MAX_MODULE_BYTES, prepareModule } from '../../../../src/core/run/wasm/module.js';
import { compileWat } from '../../../helpers/wat.js';
import { module, name, section, u32, vec } from '../../../helpers/wasm-bytes.js';

const MEMORY = 8 * 1024 * 1024;

/** `run` () -> i32: `code` then i32.const 0 and end, in one body. */
function runModule(code: Uint8Array | readonly number[]): Uint8Array {
  const head = module(section(1, vec([[0x60, 0x00, 0x01, 0x7f]])), section(3, vec([[0x00]])), section(7, vec([[...name('run'), 0x00, 0x00]])));
  // Built from pieces: a code of millions of bytes is not spread into an array.
  const bodySize = 1 + code.length + 3;
  const body = [...u32(bodySize), 0x00];
  const payload = 1 + body.length + code.length + 3;
  return Buffer.concat([head, Uint8Array.from([10, ...u32(payload), 0x01, ...body]), Uint8Array.from(code), Uint8Array.from([0x41, 0x00, 0x0b])]);
}

/** Runs the metered module's `run` with `fuel`: what is left, or 'exhausted'. */
function runWith(bytes: Uint8Array, fuel: number): bigint | 'exhausted' {
  const r = prepareModule(bytes, { memoryBytes: MEMORY, fuel });
  assert.ok(!('refused' in r), JSON.stringify(r));
  const api = wasmApi();
  const instance = new api.Instance(new api.Module(r.bytes), {});
  try {
    (instance.exports.run as () => number)();
  } catch {
    return 'exhausted';
  }
  return (instance.exports.skillctl_fuel as { value: bigint }).value;
}

describe('wasm metering', () => {
  it('charges a straight line its exact count, for counts of one, two and three bytes', () => {
    for (const nops of [1, 61, 62, 63, 8189, 8190, 20_000]) {
      // nops, i32.const 0, end: one stretch of nops + 2 instructions.
      const bytes = runModule(new Uint8Array(nops).fill(0x01));
      assert.equal(runWith(bytes, nops + 2), 0n, `${nops}`);
      assert.equal(runWith(bytes, nops + 1), 'exhausted', `${nops}`);
    }
  });

  it('charges memory.fill and memory.copy one more per 64 bytes, table.fill sixteen per element, and they work as before', async () => {
    const r = prepareModule(await compileWat('bulk-charge'), { memoryBytes: MEMORY, fuel: 1_000_000 });
    assert.ok(!('refused' in r), JSON.stringify(r));
    const api = wasmApi();
    /** What the export returns, and the fuel it used. */
    const call = (fn: string, n: number): [number, bigint] => {
      const instance = new api.Instance(new api.Module(r.bytes), {});
      const got = (instance.exports[fn] as (n: number) => number)(n);
      return [got, 1_000_000n - (instance.exports.skillctl_fuel as { value: bigint }).value];
    };
    const [, fill0] = call('fill', 0);
    assert.deepEqual(call('fill', 63), [0xab, fill0]);
    assert.deepEqual(call('fill', 6400), [0xab, fill0 + 100n]);
    const [, copy0] = call('copy', 0);
    assert.deepEqual(call('copy', 1), [7, copy0]);
    assert.deepEqual(call('copy', 65536 - 1000), [7, copy0 + 1008n]);
    const [, tfill0] = call('tfill', 0);
    assert.deepEqual(call('tfill', 16), [0, tfill0 + 256n]);
    // A length the budget cannot pay for stops the module before the instruction runs.
    const small = prepareModule(await compileWat('bulk-charge'), { memoryBytes: MEMORY, fuel: 1000 });
    assert.ok(!('refused' in small));
    const instance = new api.Instance(new api.Module(small.bytes), {});
    assert.throws(() => (instance.exports.fill as (n: number) => number)(65536));
    assert.ok((instance.exports.skillctl_fuel as { value: bigint }).value < 0n);
    assert.equal(new Uint8Array((instance.exports.memory as { buffer: ArrayBuffer }).buffer)[0], 0);
  });

  it('makes every NaN float arithmetic makes the canonical one, scalar and SIMD, and leaves numbers and moved NaNs as they are', async () => {
    // Unmetered on x64, 0/0 is 0xffc00000 (sign set), where arm64 makes 0x7fc00000: another output on another machine.
    const r = prepareModule(await compileWat('nan-canonical'), { memoryBytes: MEMORY, fuel: 1_000_000 });
    assert.ok(!('refused' in r), JSON.stringify(r));
    const api = wasmApi();
    const exports = new api.Instance(new api.Module(r.bytes), {}).exports;
    const bits = (fn: string): number => (exports[fn] as () => number)() >>> 0;
    for (const fn of ['f32_div', 'f32_sqrt', 'f32_add_payload', 'f32x4_div_lane3']) assert.equal(bits(fn), 0x7fc00000, fn);
    for (const fn of ['f64_div_hi', 'f64_promote_hi', 'f64x2_mul_hi']) assert.equal(bits(fn), 0x7ff80000, fn);
    assert.equal(bits('f32_sum'), 0x40700000); // 3.75
    assert.equal(bits('f32x4_lane1'), 0x3f800000); // 1
    assert.equal(bits('f32_neg_payload'), 0xffc12345);
  });

  it('refuses a module larger than the file bound; one of exactly the bound is metered', () => {
    /** The module padded to `total` bytes by a custom section (name "", then zeros). */
    const padded = (total: number): Uint8Array => {
      const bytes = runModule([]);
      const payload = total - bytes.length - 1 - 4; // id, a 4-byte size (16 MiB needs 4 LEB bytes)
      const out = new Uint8Array(total);
      out.set(bytes);
      out.set([0x00, ...u32(payload)], bytes.length);
      return out;
    };
    const over = prepareModule(padded(MAX_MODULE_BYTES + 1), { memoryBytes: MEMORY, fuel: 1000 });
    assert.equal('refused' in over ? over.refused.code : undefined, 'RUN_WASM_INVALID');
    const at = prepareModule(padded(MAX_MODULE_BYTES), { memoryBytes: MEMORY, fuel: 1000 });
    assert.ok(!('refused' in at) && wasmApi().validate(at.bytes));
  });

  it('refuses a module whose metered code would pass its bound, within the file bound', () => {
    // `block end` pairs: every end starts a stretch, about sixfold once metered (the reviewer's 15.2 MB module took 13.5 s and 3 GB).
    const pairs = Math.ceil(MAX_METERED_CODE_BYTES / 6 / 3) + 1000;
    const code = new Uint8Array(pairs * 3);
    for (let i = 0; i < code.length; i += 3) code.set([0x02, 0x40, 0x0b], i);
    const bytes = runModule(code);
    assert.ok(bytes.length <= MAX_MODULE_BYTES);
    const r = prepareModule(bytes, { memoryBytes: MEMORY, fuel: 1000 });
    assert.equal('refused' in r ? r.refused.code : undefined, 'RUN_WASM_INVALID');
  });

  it('carries a million custom sections over byte for byte (walked, not listed)', () => {
    const customs = new Uint8Array(3 * 1_000_000);
    for (let i = 0; i < customs.length; i += 3) customs.set([0x00, 0x01, 0x00], i);
    const bytes = runModule([]);
    const withCustoms = new Uint8Array(bytes.length + customs.length);
    withCustoms.set(bytes.subarray(0, 8));
    withCustoms.set(customs, 8);
    withCustoms.set(bytes.subarray(8), 8 + customs.length);
    const r = prepareModule(withCustoms, { memoryBytes: MEMORY, fuel: 1000 });
    assert.ok(!('refused' in r) && wasmApi().validate(r.bytes));
    assert.deepEqual(r.bytes.subarray(8, 8 + customs.length), customs);
  });

  it('the writer refuses to grow past its bound', () => {
    const w = new ByteWriter(16, 64);
    w.bytes(new Uint8Array(64));
    assert.throws(() => w.byte(0), ByteLimitError);
    assert.equal(w.length, 64);
  });
});
