// NaN canonicalisation (the metering pass, src/core/run/wasm/meter.ts): a float result's NaN bits are the
// machine's choice, and V8 chose by tier. fixtures/wasm/nan-bits.wat returns a mask of the NaN
// results that are not the canonical positive quiet NaN; before the rewrite canonicalised them it
// returned 0x7fff on x86 (its default NaN is negative), and its f32.mul of two NaNs gave the first
// operand's payload in Liftoff and the second's once TurboFan had compiled the function, so one
// input printed -4194303 in one run and 2143289635 in the next (warm-up rounds near the tier-up).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { wasmApi } from '../../../../src/core/run/wasm/engine-types.js';
import { prepareModule } from '../../../../src/core/run/wasm/module.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { engine } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';
import { compileWat } from '../../../helpers/wat.js';

describe('wasm NaN results are canonical, whatever code V8 runs', () => {
  const tmp = tempDir('skillctl-wasm-nan-');
  let root: string;
  let target: string;

  before(async () => {
    root = realpathSync(tmp);
    const dir = join(root, 'nan-bits');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat('nan-bits'));
    target = await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} })] });
  });

  it('the rewritten module is valid WebAssembly', async () => {
    const r = prepareModule(await compileWat('nan-bits'), { memoryBytes: 8 * 1024 * 1024, fuel: 10_000_000 });
    assert.ok(!('refused' in r) && wasmApi().validate(r.bytes));
  });

  it('cold (Liftoff): every NaN result is 0x7fc00000 or 0x7ff8000000000000, and ordinary results keep their bits', async () => {
    const r = await engine({ cwd: root, target, input: 0 });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, 0);
  });

  it('after 3,000 rounds (TurboFan, where it swaps the operands of f32.mul): the same output', async () => {
    const r = await engine({ cwd: root, target, input: 3000 });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, 0);
  });
});
