// The module check and rewrite (src/core/run/wasm/module.ts) on hostile bytes: every truncation
// and every single-byte corruption of a real module is refused with a code or accepted, never a
// crash, and whatever is accepted is a module the engine validates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wasmApi } from '../../../../src/core/run/wasm/engine-types.js';
import { prepareModule } from '../../../../src/core/run/wasm/module.js';
import { compileWat } from '../../../helpers/wat.js';

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
