// Threat: a wasm module whose fuel does not bound its work. WASI's fd_write and fd_read take an
// array of up to 1,024 iovecs, each decoded, checked against the module's memory and sliced by the
// module's thread (and, for stdout, kept), while the call paid fuel only for the bytes it moved: a
// loop writing 1,024 empty iovecs to stdout, or reading stdin into them, moved nothing, paid the
// dozen instructions of its loop, and held its thread until the deadline, stdout's list of empty
// pieces growing on every call (until the stop of 2026-12-02). Each iovec is now paid (sixteen
// units, as a table element is), and an empty one is not kept: the budget stops such a loop
// within a fraction of a second (RUN_WASM_FUEL_EXHAUSTED).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { engine, errorCodes } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeWasmBundle } from '../helpers/wat.js';

describe('WASI fd_write and fd_read pay for their iovecs', () => {
  const tmp = tempDir('skillctl-wasi-iovecs-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  for (const fn of ['write', 'read'] as const) {
    it(`a loop of fd_${fn} of 1,024 empty iovecs is stopped by its fuel, not by its deadline`, async () => {
      // A deadline far beyond what the budget allows: the budget must be what stops the module.
      const limits = { max_execution_time: '20s' };
      const target = await writeWasmBundle(join(root, fn), 'hostile-empty-iovecs', { args: ['_start', fn[0] as string], limits });
      const t = performance.now();
      const r = await engine({ cwd: root, target, input: {} });
      const ms = performance.now() - t;
      assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
      assert.ok(ms < 5_000, `stopped after ${Math.round(ms)} ms`);
    });
  }
});
