// Threat: a wasm module whose validation keeps skillctl busy before its deadline starts. The engine
// validates a module (as written, then as rewritten) on the run's own thread, and no deadline or
// signal interrupts it; its time is not the module's size. Three bytes declare 50,000 locals of a
// function, and a block, call, branch or function end in unreachable code makes the engine conjure
// or check every value of a type of a thousand results: a 1 MB module held the thread 11.6 s, 600 KB
// of blocks 4.3 s, 500 KB of such functions 1.4 s, 16 MiB minutes (an `mcp` server answered no
// session meanwhile). Such a module is refused (RUN_WASM_INVALID) before the engine sees it, in
// milliseconds; an ordinary module is not.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { checkWasmModule, type WasmLimits } from '../../src/core/run/runtimes/wasm.js';
import { MAX_VALIDATION_WORK, validationWork } from '../../src/core/run/wasm/validation-work.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { engine, errorCodes } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { compileWat } from '../helpers/wat.js';
import { module, name, section, u32, vec } from '../helpers/wasm-bytes.js';

const LIMITS: WasmLimits = { timeoutMs: 5000, maxOutputBytes: 65536, memoryBytes: 8 * 1024 * 1024, fuel: 10_000_000 };
const I32 = 0x7f;
const RUN_TYPE = [0x60, 0x00, 0x01, I32];
const EXPORT_RUN = section(7, vec([[...name('run'), 0x00, 0x00]]));

/** `functions` functions () -> i32, each declaring `locals` i32 locals and returning 0. */
function localsBomb(functions: number, locals: number): Uint8Array {
  const body = [0x01, ...u32(locals), I32, 0x41, 0x00, 0x0b];
  return module(section(1, vec([RUN_TYPE])), section(3, vec(Array.from({ length: functions }, () => [0x00]))), EXPORT_RUN, section(10, vec(Array.from({ length: functions }, () => [...u32(body.length), ...body]))));
}

/** `run` of `blocks` times `block (type 1) unreachable end br 0`, type 1 giving `results` i32s. */
function blockBomb(blocks: number, results: number): Uint8Array {
  const wide = [0x60, 0x00, ...u32(results), ...Array<number>(results).fill(I32)];
  const body = [0x00, ...Array.from({ length: blocks }, () => [0x02, 0x01, 0x00, 0x0b, 0x0c, 0x00]).flat(), 0x41, 0x00, 0x0b];
  return module(section(1, vec([RUN_TYPE, wide])), section(3, vec([[0x00]])), EXPORT_RUN, section(10, vec([[...u32(body.length), ...body]])));
}

/** `run` of `calls` times `call 1 br 0` in unreachable code, function 1 of `arity` params and results. */
function callBomb(calls: number, arity: number): Uint8Array {
  const wide = [0x60, ...u32(arity), ...Array<number>(arity).fill(I32), ...u32(arity), ...Array<number>(arity).fill(I32)];
  const run = [0x00, 0x00, ...Array.from({ length: calls }, () => [0x10, 0x01, 0x0c, 0x00]).flat(), 0x0b];
  const callee = [0x00, 0x00, 0x0b];
  return module(section(1, vec([RUN_TYPE, wide])), section(3, vec([[0x00], [0x01]])), EXPORT_RUN, section(10, vec([[...u32(run.length), ...run], [...u32(callee.length), ...callee]])));
}

/** `run`, and `functions` functions of `results` i32 results, each of them `unreachable end`. */
function resultsBomb(functions: number, results: number): Uint8Array {
  const wide = [0x60, 0x00, ...u32(results), ...Array<number>(results).fill(I32)];
  const run = [0x00, 0x41, 0x00, 0x0b];
  const body = [0x00, 0x00, 0x0b];
  const bodies = [[...u32(run.length), ...run], ...Array.from({ length: functions }, () => [...u32(body.length), ...body])];
  return module(section(1, vec([RUN_TYPE, wide])), section(3, vec([[0x00], ...Array.from({ length: functions }, () => [0x01])])), EXPORT_RUN, section(10, vec(bodies)));
}

function timedCheck(bytes: Uint8Array): { readonly code: string | undefined; readonly ms: number } {
  const t = performance.now();
  const r = checkWasmModule({ bytes, digest: 'sha256:0', entry: 'run' }, LIMITS, false);
  return { code: 'refused' in r ? r.refused.code : undefined, ms: performance.now() - t };
}

describe('wasm modules whose validation would outlast every deadline', () => {
  const tmp = tempDir('skillctl-wasm-validation-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  // Each is valid WebAssembly, and was accepted after seconds of validation on the run's thread.
  const bombs: readonly (readonly [string, () => Uint8Array])[] = [
    ['20,000 functions of 50,000 locals each (200 KB)', () => localsBomb(20_000, 50_000)],
    ['20,000 blocks of a thousand results in unreachable code (120 KB)', () => blockBomb(20_000, 1000)],
    ['10,000 calls of a function of a thousand params and results (40 KB)', () => callBomb(10_000, 1000)],
    ['20,000 functions of a thousand results, each ending in unreachable code (100 KB)', () => resultsBomb(20_000, 1000)],
  ];
  for (const [what, build] of bombs) {
    it(`${what} is refused before the engine validates it`, () => {
      const bytes = build();
      assert.ok(validationWork(bytes) > MAX_VALIDATION_WORK);
      const r = timedCheck(bytes);
      assert.equal(r.code, 'RUN_WASM_INVALID');
      assert.ok(r.ms < 1000, `refused in ${Math.round(r.ms)} ms`);
    });
  }

  it('through a run: the bundle is refused (bundle_invalid), nothing of the module runs', async () => {
    const dir = join(root, 'locals');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), localsBomb(20_000, 50_000));
    const target = await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} })] });
    const t = performance.now();
    const r = await engine({ cwd: root, target, input: {} });
    assert.equal(r.status, 'bundle_invalid');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_INVALID']);
    assert.ok(performance.now() - t < 3000);
  });

  it('ordinary modules ask far less than the bound: many locals and calls, within reason, are accepted', async () => {
    for (const fixture of ['compute-fnv', 'wasi-path-ops', 'echo-input']) {
      const bytes = await compileWat(fixture);
      assert.ok(validationWork(bytes) < 10_000, fixture);
    }
    // 10,000 functions of 100 locals, a million in all: well within the bound.
    assert.equal(timedCheck(localsBomb(10_000, 100)).code, undefined);
  });
});
