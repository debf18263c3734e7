// Threat: a wasm module whose fuel does not bound its work. fs_write_file creates every missing
// parent of the path it writes, each a mkdir and its checks, and looked for the deepest existing
// one a level at a time, while the call paid fuel only for the bytes of its path and data (one
// unit in 64): a loop writing {} to <dir>/<four new letters>/a/a/.../a/x, 1,901 new levels a call
// within a path of 4 KB, held the run's thread 10 s a call on 63 units, so only its deadline
// stopped it (until the stop of 2026-12-02). A path now pays for its levels (256 units each), each
// directory a call creates is paid (16,384 units, as 1 MiB of bytes moved), the host creates no
// more than the fuel left pays for and finds the deepest existing parent by halving: the budget
// stops such a loop within a fraction of its deadline (RUN_WASM_FUEL_EXHAUSTED), having created at
// most the 610 directories it pays for.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { engine, errorCodes, policyFrom } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeWasmBundle } from '../helpers/wat.js';

async function countDirs(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isDirectory()).length;
}

describe('fs_write_file pays for the parent directories it creates', () => {
  const tmp = tempDir('skillctl-wasm-parents-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  for (const [fn, what] of [
    ['deep', 'under 1,901 new directories in 4 KB (each refused: more than the fuel left pays for)'],
    ['wide', 'under 301 new directories'],
  ] as const) {
    it(`a loop writing ${what} a call is stopped by its fuel, not by its deadline`, async () => {
      const granted = join(root, fn);
      await mkdir(granted, { recursive: true });
      const perms = { 'fs.write': [granted] };
      // A deadline far beyond what the budget allows: the budget must be what stops the module.
      const limits = { max_execution_time: '20s' };
      const target = await writeWasmBundle(join(root, `bundle-${fn}`), 'hostile-write-parents', { args: [fn], limits, perms });
      const t = performance.now();
      const r = await engine({ cwd: root, target, input: granted, policy: policyFrom({ permissions: perms }, root) });
      const ms = performance.now() - t;
      assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
      assert.ok(ms < 5_000, `stopped after ${Math.round(ms)} ms`);
      // The budget (10,000,000) pays for 610 directories at most.
      assert.ok((await countDirs(granted)) <= 610);
    });
  }
});
