// Modules built to get past the checks before a module starts (runtimes/wasm.ts checkWasmModule,
// wasm/module.ts): each is refused with its code before any of its code runs.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { checkWasmModule, type WasmLimits } from '../../../../src/core/run/runtimes/wasm.js';
import { wasmApi } from '../../../../src/core/run/wasm/engine-types.js';
import { prepareModule } from '../../../../src/core/run/wasm/module.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { engine, errorCodes } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';
import { compileWat } from '../../../helpers/wat.js';
import { module, name, section, u32, vec, withoutSection } from '../../../helpers/wasm-bytes.js';

const LIMITS: WasmLimits = { timeoutMs: 5000, maxOutputBytes: 65536, memoryBytes: 8 * 1024 * 1024, fuel: 10_000_000 };
const GLOBAL_SECTION = 6;

/** `count` tables of `elements` funcref each, a memory, and `run` () -> i32 returning 0. */
function tablesModule(count: number, elements: number): Uint8Array {
  return module(
    section(1, vec([[0x60, 0x00, 0x01, 0x7f]])),
    section(3, vec([[0x00]])),
    section(4, vec(Array.from({ length: count }, () => [0x70, 0x00, ...u32(elements)]))),
    section(5, vec([[0x00, 0x01]])),
    section(7, vec([[...name('run'), 0x00, 0x00], [...name('memory'), 0x02, 0x00]])),
    section(10, vec([[0x04, 0x00, 0x41, 0x00, 0x0b]])),
  );
}

function check(bytes: Uint8Array, named = false): ReturnType<typeof checkWasmModule> {
  return checkWasmModule({ bytes, digest: 'sha256:0', entry: 'run' }, LIMITS, named);
}
const refusedCode = (r: ReturnType<typeof checkWasmModule>): string | undefined => ('refused' in r ? r.refused.code : undefined);

describe('hostile wasm modules', () => {
  const tmp = tempDir('skillctl-wasm-hostile-');
  let root: string;

  async function bundle(name: string, bytes: Uint8Array): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), bytes);
    return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} })] });
  }

  before(() => {
    root = realpathSync(tmp);
  });

  it('a module naming the global the fuel counter would take is refused: it cannot refill its budget', async () => {
    const own = await compileWat('hostile-fuel-refill');
    const stripped = withoutSection(own, GLOBAL_SECTION);
    // The threat: invalid as it stands, the module validates once rewritten, global 0 being the counter.
    assert.equal(wasmApi().validate(stripped), false);
    const rewritten = prepareModule(stripped, { memoryBytes: LIMITS.memoryBytes, fuel: 10_000_000 });
    assert.ok(!('refused' in rewritten) && wasmApi().validate(rewritten.bytes));
    assert.equal(refusedCode(check(stripped)), 'RUN_WASM_INVALID');
    const r = await engine({ cwd: root, target: await bundle('refill', stripped), input: {} });
    assert.equal(r.status, 'bundle_invalid');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_INVALID']);
    // With its own global it only refills that one, and the budget stops it.
    const control = await engine({ cwd: root, target: await bundle('refill-own', own), input: {} });
    assert.deepEqual(errorCodes(control), ['RUN_WASM_FUEL_EXHAUSTED']);
  });

  it('a start function that is an imported host call is refused, by the engine and by the rewrite', async () => {
    const bytes = await compileWat('hostile-start-import');
    assert.equal(refusedCode(check(bytes)), 'RUN_WASM_INVALID');
    const r = prepareModule(bytes, { memoryBytes: LIMITS.memoryBytes, fuel: 1000 });
    assert.equal('refused' in r ? r.refused.code : undefined, 'RUN_WASM_INVALID');
  });

  it('more tables than provenact allows are refused before instantiation; eight of the largest are not', async () => {
    const r = await engine({ cwd: root, target: await bundle('nine-tables', await compileWat('hostile-nine-tables')), input: {} });
    assert.equal(r.status, 'memory_limit');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_MEMORY_LIMIT']);
    // The reviewer's 5,000 tables of 10,000 elements (1.47 GB, 16 s past a 2 s deadline).
    assert.equal(refusedCode(check(tablesModule(5000, 10_000), true)), 'RUN_WASM_MEMORY_LIMIT');
    const eight = check(tablesModule(8, 10_000), true);
    assert.ok(!('refused' in eight), JSON.stringify(eight));
    const ok = await engine({ cwd: root, target: await bundle('eight-tables', tablesModule(8, 10_000)), input: {} });
    assert.equal(ok.status, 'ok', JSON.stringify(ok.diagnostics));
    assert.equal(ok.output, 0);
  });

  it('a module using relaxed SIMD, whose results differ between machines, is refused before it starts', async () => {
    // An engine without relaxed SIMD (Node 20) refuses it itself; one with it (Node 22 and later) ran it.
    const r = await engine({ cwd: root, target: await bundle('relaxed-simd', await compileWat('hostile-relaxed-simd', { relaxed_simd: true })), input: {} });
    assert.deepEqual([r.status, r.exitCode, errorCodes(r), r.output], ['bundle_invalid', 1, ['RUN_WASM_INVALID'], undefined]);
    assert.equal(r.record.result?.attempts, 0);
  });
});
