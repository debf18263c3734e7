// Threat: a wasm module whose fuel does not bound its work. A WASI call the module's thread
// forwards to the run's thread (a message there and back, and the host's answer) paid fuel only
// for the bytes it moved, and fd_filestat_set_size and fd_allocate none for the bytes of the file's
// buffer the host allocates or clears: a loop of fd_seek on a preopen, and a loop setting a file's
// size to 64 MiB and back to 0 (64 MiB cleared a turn), each ran a dozen instructions of fuel a
// call until the deadline (until the stop of 2026-12-02). A forwarded call now pays 1,024 units, and
// a resize the bytes the host allocated or cleared (one unit in 64): the budget stops either loop
// within a fraction of its deadline (RUN_WASM_FUEL_EXHAUSTED).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { engine, errorCodes, policyFrom } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeWasmBundle } from '../helpers/wat.js';

describe('a WASI call pays for the exchange with the host, and a resize for the bytes it clears', () => {
  const tmp = tempDir('skillctl-wasi-calls-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  for (const [fixture, what] of [
    ['hostile-hostcall-flood', 'fd_seek on a preopen'],
    ['hostile-resize-flood', 'fd_filestat_set_size to 64 MiB and back to 0'],
  ] as const) {
    it(`a loop of ${what} is stopped by its fuel, not by its deadline`, async () => {
      const granted = join(root, `granted-${fixture}`);
      await mkdir(granted, { recursive: true });
      const perms = { 'fs.read': [granted], 'fs.write': [granted] };
      // A deadline far beyond what the budget allows: the budget must be what stops the module.
      const limits = { max_execution_time: '20s' };
      const target = await writeWasmBundle(join(root, fixture), fixture, { limits, perms });
      const t = performance.now();
      const r = await engine({ cwd: root, target, input: {}, policy: policyFrom({ permissions: perms }, root) });
      const ms = performance.now() - t;
      assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
      assert.ok(ms < 10_000, `stopped after ${Math.round(ms)} ms`);
    });
  }
});
