// Threat: a wasm module whose fuel does not bound its work. fs_read_tree walks the directory it
// names (up to 10,000 entries, each listed and looked at), while the call paid fuel only for its
// path and for the answer it copied: one that did not fit the module's buffer failed (-1) having
// paid for its path alone, so a loop of fs_read_tree of 5,000 files into a buffer of 0 bytes ran
// until its deadline (until the stop of 2026-12-02). Each entry the host looks at is now paid
// (512 units, as 32 KiB of bytes moved), whatever the call's outcome: the budget stops such a loop
// within a fraction of its deadline (RUN_WASM_FUEL_EXHAUSTED).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { engine, errorCodes, policyFrom } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeWasmBundle } from '../helpers/wat.js';

describe('fs_read_tree pays for the entries it walks', () => {
  const tmp = tempDir('skillctl-wasm-tree-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  it('a loop walking 5,000 files into a buffer of 0 bytes is stopped by its fuel, not by its deadline', async () => {
    const granted = join(root, 'granted');
    await mkdir(granted, { recursive: true });
    for (let i = 0; i < 5000; i++) await writeFile(join(granted, `f${i}`), '');
    const perms = { 'fs.read': [granted] };
    // A deadline far beyond what the budget allows: the budget must be what stops the module.
    const limits = { max_execution_time: '20s' };
    const target = await writeWasmBundle(join(root, 'bundle'), 'hostile-tree-flood', { limits, perms });
    const t = performance.now();
    const r = await engine({ cwd: root, target, input: granted, policy: policyFrom({ permissions: perms }, root) });
    const ms = performance.now() - t;
    assert.deepEqual([r.status, errorCodes(r)], ['failed', ['RUN_WASM_FUEL_EXHAUSTED']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
    // Each call looks at 5,000 entries, a second on a busy machine; the budget pays for four.
    assert.ok(ms < 15_000, `stopped after ${Math.round(ms)} ms`);
  });
});
