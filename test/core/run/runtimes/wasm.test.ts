// A wasm run handed a thread started early (runtimes/wasm.ts, startSpareWasmThread): the run
// posts its job to that thread only when its own limits are exactly the ones the thread was
// started with; for any others the thread is stopped and the run starts its own, and the run's
// result and limits are the same either way.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS } from '../../../../src/core/manifest/limits.js';
import { builtinThreadLimits } from '../../../../src/core/run/thread-limits.js';
import { startSpareWasmThread, type WasmSpare } from '../../../../src/core/run/runtimes/wasm.js';
import { spareOf } from '../../../../src/entry/spare-worker.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { engine, errorCodes } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';
import { compileWat } from '../../../helpers/wat.js';

const SCHEMAS = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };

/** A spare that reports what the run asked of it, and whether its thread has ended. */
function watched(limits: ResourceLimits): { spare: WasmSpare; asked: ResourceLimits[]; ended: Promise<number> } {
  const worker: Worker = startSpareWasmThread(limits);
  const ended = new Promise<number>((resolve) => worker.once('exit', resolve));
  const inner = spareOf(worker, limits);
  const asked: ResourceLimits[] = [];
  return {
    spare: {
      take(l) {
        asked.push(l);
        return inner.take(l);
      },
    },
    asked,
    ended,
  };
}

describe('wasm runtime with a spare thread', () => {
  const tmp = tempDir('skillctl-wasm-spare-');
  let root: string;

  async function bundle(name: string, fixture: string, over: Record<string, unknown> = {}): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
    return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', runtime_limits: { max_memory: 64 }, ...SCHEMAS, ...over })] });
  }

  before(() => {
    root = realpathSync(tmp);
  });

  it('runs the module in the spare when the limits are the run’s', async () => {
    const w = watched(builtinThreadLimits(64));
    const r = await engine({ cwd: root, target: await bundle('echo', 'echo-input'), input: { path: 'x' }, options: { wasmSpare: w.spare } });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { path: 'x' });
    assert.deepEqual(w.asked, [builtinThreadLimits(64)]);
    // Taken, then terminated by the run at its end (a spare that was not taken is stopped by take).
    await w.ended;
  });

  it('stops a spare started with other limits, and runs the module in a thread of its own', async () => {
    const w = watched(builtinThreadLimits(512));
    const r = await engine({ cwd: root, target: await bundle('echo-other', 'echo-input'), input: { path: 'y' }, options: { wasmSpare: w.spare } });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { path: 'y' });
    assert.deepEqual(w.asked, [builtinThreadLimits(64)]);
    await w.ended;
  });

  it('the limits hold in the spare: an infinite loop stops at its fuel, memory.grow past the grant is -1', async () => {
    const loop = watched(builtinThreadLimits(64));
    const r = await engine({ cwd: root, target: await bundle('loop', 'hostile-loop'), input: {}, options: { wasmSpare: loop.spare } });
    assert.deepEqual(errorCodes(r), ['RUN_WASM_FUEL_EXHAUSTED']);
    assert.equal(loop.asked.length, 1);
    // No max_memory: the default 8 MiB grant, in a thread of the default heap.
    const grow = watched(builtinThreadLimits(DEFAULT_LIMITS.memoryMiB));
    const g = await engine({ cwd: root, target: await bundle('grow-past', 'hostile-grow', { command: ['skill.wasm', 'past'], runtime_limits: {} }), input: {}, options: { wasmSpare: grow.spare } });
    assert.equal(g.output, -1);
    assert.deepEqual(grow.asked, [builtinThreadLimits(DEFAULT_LIMITS.memoryMiB)]);
  });

  it('the deadline holds in the spare: an unmetered loop is stopped at the time limit', async () => {
    const w = watched(builtinThreadLimits(64));
    const r = await engine({ cwd: root, target: await bundle('loop-timeout', 'hostile-loop', { runtime_limits: { max_memory: 64, max_execution_time: '300ms' } }), input: {}, options: { wasmSpare: w.spare, wasmFuel: null } });
    assert.equal(r.status, 'timeout');
    assert.deepEqual(errorCodes(r), ['RUN_TIMEOUT']);
    await w.ended;
  });
});
