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
import { withoutSection } from '../../../helpers/wasm-bytes.js';

const LIMITS: WasmLimits = { timeoutMs: 5000, maxOutputBytes: 65536, memoryBytes: 8 * 1024 * 1024, fuel: 10_000_000 };
const GLOBAL_SECTION = 6;

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
});
