// The module check and rewrite (src/core/run/wasm/module.ts) on hostile bytes: every truncation
// and every single-byte corruption of a real module is refused with a code or accepted, never a
// crash, and whatever is accepted is a module the engine validates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wasmApi } from '../../../../src/core/run/wasm/engine-types.js';
import { prepareModule } from '../../../../src/core/run/wasm/module.js';
import { compileWat } from '../../../helpers/wat.js';
import { module, name, section, u32, vec } from '../../../helpers/wasm-bytes.js';

const LIMITS = { memoryBytes: 8 * 1024 * 1024, fuel: 1000, entry: 'run' };

describe('wasm module check', () => {
  it('refuses every truncation of a module, here or in the engine validation that follows, never throwing', async () => {
    const bytes = await compileWat('read-file');
    for (let n = 0; n < bytes.length; n++) {
      const r = prepareModule(bytes.subarray(0, n), LIMITS);
      // A prefix ending between sections reads as a module (without its exports: no entry); the engine then finds functions without code.
      if (!('refused' in r)) assert.equal(wasmApi().validate(r.bytes), false, `prefix of ${n} bytes was accepted`);
      else assert.match(r.refused.code, /^RUN_WASM_(INVALID|ENTRY_INVALID)$/);
    }
  });

  it('every single-byte corruption is refused with a code or gives a module the engine validates', async () => {
    const bytes = await compileWat('count-loop');
    for (let i = 8; i < bytes.length; i++) {
      for (const v of [0x00, 0x7f, 0xff]) {
        const copy = Uint8Array.from(bytes);
        copy[i] = v;
        const r = prepareModule(copy, LIMITS);
        if ('refused' in r) assert.match(r.refused.code, /^RUN_WASM_/);
        else assert.equal(typeof wasmApi().validate(r.bytes), 'boolean');
      }
    }
  });

  it('the metered module of a valid one is valid, and exports the fuel counter', async () => {
    for (const name of ['read-file', 'count-loop', 'hostile-start-loop', 'hostile-grow', 'compute-fnv']) {
      const r = prepareModule(await compileWat(name), LIMITS);
      assert.ok(!('refused' in r), name);
      assert.ok(wasmApi().validate(r.bytes), name);
      const exports = wasmApi().Module.exports(new (wasmApi().Module)(r.bytes)).map((e) => e.name);
      assert.ok(exports.includes('skillctl_fuel'), name);
    }
  });
});

/**
 * A module built byte by byte (so that the engine in use need not accept it: Node 20 has no
 * WasmGC, Node 22 and later do): `run` () -> i32 with the given local declarations and code, and
 * the given tables.
 */
function handMade(code: readonly number[], locals: readonly (readonly number[])[] = [], tables?: readonly (readonly number[])[]): Uint8Array {
  const body = [...vec(locals), ...code];
  return module(
    section(1, vec([[0x60, 0x00, 0x01, 0x7f]])),
    section(3, vec([[0x00]])),
    ...(tables !== undefined ? [section(4, vec(tables))] : []),
    section(5, vec([[0x00, 0x01]])),
    section(7, vec([[...name('run'), 0x00, 0x00], [...name('memory'), 0x02, 0x00]])),
    section(10, vec([[...u32(body.length), ...body]])),
  );
}
const I32_CONST_0 = [0x41, 0x00];
const END = 0x0b;
const REF_NULL_FUNC = [0x63, 0x70];
const REF_FUNC = [0x64, 0x70];

describe('wasm decoder: encodings it does not read are refused, never misread', () => {
  const code = (bytes: Uint8Array): string | undefined => {
    const r = prepareModule(bytes, LIMITS);
    return 'refused' in r ? r.refused.code : undefined;
  };

  it('a local of a WasmGC reference type ((ref null func), (ref func)) is refused', () => {
    assert.equal(code(handMade([...I32_CONST_0, END], [[0x01, ...REF_NULL_FUNC]])), 'RUN_WASM_INVALID');
    assert.equal(code(handMade([...I32_CONST_0, END], [[0x02, ...REF_FUNC]])), 'RUN_WASM_INVALID');
    // The same local as funcref: read, metered, valid.
    const ok = prepareModule(handMade([...I32_CONST_0, END], [[0x01, 0x70]]), LIMITS);
    assert.ok(!('refused' in ok) && wasmApi().validate(ok.bytes));
  });

  it('a block type that is a WasmGC reference type is refused; a type index is read whole', () => {
    for (const ref of [REF_NULL_FUNC, REF_FUNC]) {
      assert.equal(code(handMade([0x02, ...ref, 0xd0, 0x70, END, 0x1a, ...I32_CONST_0, END])), 'RUN_WASM_INVALID');
      assert.equal(code(handMade([0x04, ...ref, 0xd0, 0x70, 0x05, 0xd0, 0x70, END, 0x1a, ...I32_CONST_0, END])), 'RUN_WASM_INVALID');
    }
    // block (type 0): () -> i32, an s33 type index.
    const ok = prepareModule(handMade([0x02, 0x00, ...I32_CONST_0, END, END]), LIMITS);
    assert.ok(!('refused' in ok) && wasmApi().validate(ok.bytes));
  });

  it('ref.null of a heap type other than func or extern (a type index, one byte or two) is refused', () => {
    assert.equal(code(handMade([0xd0, 0x00, 0x1a, ...I32_CONST_0, END])), 'RUN_WASM_INVALID');
    assert.equal(code(handMade([0xd0, 0xc8, 0x01, 0x1a, ...I32_CONST_0, END])), 'RUN_WASM_INVALID');
    const ok = prepareModule(handMade([0xd0, 0x70, 0x1a, ...I32_CONST_0, END]), LIMITS);
    assert.ok(!('refused' in ok) && wasmApi().validate(ok.bytes));
  });

  it('a table of a typed reference, with an initializer, or 64-bit is refused', () => {
    const body = [...I32_CONST_0, END];
    assert.equal(code(handMade(body, [], [[...REF_NULL_FUNC, 0x00, 0x01]])), 'RUN_WASM_INVALID');
    assert.equal(code(handMade(body, [], [[0x40, 0x00, 0x70, 0x00, 0x01, 0xd0, 0x70, END]])), 'RUN_WASM_INVALID');
    assert.equal(code(handMade(body, [], [[0x70, 0x04, 0x01]])), 'RUN_WASM_INVALID');
    const ok = prepareModule(handMade(body, [], [[0x70, 0x00, 0x01]]), LIMITS);
    assert.ok(!('refused' in ok) && wasmApi().validate(ok.bytes));
  });

  it('relaxed SIMD (0xfd 0x100 to 0x113) is refused whatever the engine; the SIMD around it is read', () => {
    // v128.const 0, then the instruction, on the 16 bytes or more it takes (only the opcode is read).
    const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
    for (let sub = 0x100; sub <= 0x113; sub++) {
      const body = [...V128_ZERO, ...V128_ZERO, ...V128_ZERO, 0xfd, ...u32(sub), 0x1a, ...I32_CONST_0, END];
      assert.equal(code(handMade(body)), 'RUN_WASM_INVALID', `0xfd ${sub}`);
    }
    // i32x4.add (0xfd 0xae 0x01), then i32x4.extract_lane 0 (0xfd 0x1b 0x00): read, metered, valid.
    const ok = prepareModule(handMade([...V128_ZERO, ...V128_ZERO, 0xfd, 0xae, 0x01, 0xfd, 0x1b, 0x00, END]), LIMITS);
    assert.ok(!('refused' in ok) && wasmApi().validate(ok.bytes));
  });
});
