// Threat: a wasm module whose fuel does not bound its work. Fuel is the module's instruction budget,
// counted by the module itself, so that a run stops at the same instruction on every machine
// before its deadline. memory.fill, memory.copy and memory.init, and table.fill, table.copy and
// table.init, do work in proportion to their length operand, yet were charged as one instruction:
// a loop filling the whole 8 MiB memory ran 4 s on 0.3% of the default budget, and the budget
// would have held the thread ten minutes, so only the deadline stopped it (and a run that ended
// in time on one machine timed out on a slower one). A hostcall that copies bytes (output_write of
// 1 MiB) was one call too: 20,000 of them took 4.4 s on 1% of the budget. Lengths and the bytes a
// hostcall moves are charged now, and a path longer than any file has is answered by the module's
// thread (a loop of WASI path_open of 8 MB held the run's thread half a second a call until the
// deadline): the budget stops such a loop within a fraction of a second (RUN_WASM_FUEL_EXHAUSTED).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { engine, errorCodes } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { compileWat } from '../helpers/wat.js';

describe('wasm fuel and the instructions and hostcalls whose work is their length', () => {
  const tmp = tempDir('skillctl-wasm-fuel-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  async function bundle(fixture: string, over: Record<string, unknown> = {}): Promise<string> {
    const dir = join(root, fixture);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
    // A deadline far beyond what the budget allows: the budget must be what stops the module.
    const limits = { max_execution_time: '20s' };
    return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', runtime_limits: limits, input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {}, ...over })] });
  }

  for (const [fixture, what] of [
    ['hostile-bulk-fill', 'a loop of memory.fill and memory.copy over the whole memory'],
    ['hostile-bulk-table', 'a loop of table.fill and table.copy over a table of 10,000 elements'],
    ['hostile-output-loop', 'a loop of output_write handing the host 1 MiB to copy each time'],
  ] as const) {
    it(`${what} is stopped by its fuel, not by its deadline`, async () => {
      const t = performance.now();
      const r = await engine({ cwd: root, target: await bundle(fixture), input: {} });
      const ms = performance.now() - t;
      assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], JSON.stringify(r.diagnostics));
      assert.ok(ms < 10_000, `stopped after ${Math.round(ms)} ms`);
    });
  }

  it('a WASI command opening a path of 8,000,000 bytes in a loop (each refusal lets it go on) is stopped by its fuel, not by its deadline', async () => {
    const t = performance.now();
    const r = await engine({ cwd: root, target: await bundle('hostile-path-flood', { requested_permissions: { 'fs.read': ['.'] } }), input: {} });
    const ms = performance.now() - t;
    assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], JSON.stringify(r.diagnostics));
    assert.ok(ms < 10_000, `stopped after ${Math.round(ms)} ms`);
    // Answered by the module's thread (NAMETOOLONG): nothing for the gate to refuse.
    assert.deepEqual(r.record.policy.denials, []);
  });
});
