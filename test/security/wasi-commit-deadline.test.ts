// Threat: resource exhaustion. A WASI command whose file writes are committed outside its deadline:
// a WASI module's open files are buffers the host writes whole when they are closed or synced, and
// when the module ends by returning or by proc_exit; the files still open at that end were written
// after the deadline had been cleared. A module that opened two files, made each 64 MiB of zeros
// (one fd_filestat_set_size each, within the bytes open files may hold together) and returned made
// the host write and sync 128 MiB with no time limit: its run ended OK some 3 s past its
// max_execution_time of 1.5 s, both files written (until the stop of 2026-12-02). The commit now
// runs under the deadline, in two steps: every file is written beside its name, then all are
// renamed into place. A deadline reached while they are written stops the run (RUN_TIMEOUT), no
// file changed and no temporary file left, once the one write under way has backed out (between
// two of its pieces since the stop of 2026-12-02: checked-fs-write.test.ts).
//
// Where in the run a deadline falls depends on the disk: a quiet one writes both files in well
// under a second, a busy one takes seconds. So the run is made under several deadlines, and each
// outcome must be whole: OK with both files written, or RUN_TIMEOUT with none changed; and the
// run ends within its deadline and the grace a stopped run gives work under way. The shortest
// deadline stops it on any machine; the longer ones fall within the commit on a slow disk.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { COMMIT_GRACE_MS } from '../../src/core/run/thread-limits.js';
import { engine, errorCodes, policyFrom } from '../helpers/run.js';
import { tempDir } from '../helpers/tmp.js';
import { writeWasmBundle } from '../helpers/wat.js';

const FILES = 3;
/** The bytes fd_filestat_set_size gives each of the files the module makes (fixtures/wasm/hostile-commit-flood.wat). */
const SIZE = 64 << 20;
const DEADLINES_MS = [1500, 600, 100];

describe("the commit of a WASI command's open files is bounded by its deadline", () => {
  const tmp = tempDir('skillctl-wasi-commit-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  for (const deadline of DEADLINES_MS) {
    it(`two files of 64 MiB left open at the end, a deadline of ${deadline} ms: both written, or RUN_TIMEOUT and none changed`, async () => {
      const granted = join(root, `granted-${deadline}`);
      await mkdir(granted, { recursive: true });
      const names = Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(3, '0')}`);
      for (const name of names) await writeFile(join(granted, name), '');
      const perms = { 'fs.read': [granted], 'fs.write': [granted] };
      const limits = { max_execution_time: `${deadline}ms` };
      const target = await writeWasmBundle(join(root, `bundle-${deadline}`), 'hostile-commit-flood', { limits, perms });
      const t = performance.now();
      const r = await engine({ cwd: root, target, input: {}, policy: policyFrom({ permissions: perms }, root) });
      const ms = performance.now() - t;
      const sizes = await Promise.all(names.map(async (name) => (await stat(join(granted, name))).size));
      // Nothing half-committed: no temporary file beside them, and the files all written or none.
      assert.deepEqual((await readdir(granted)).sort(), names);
      if (r.status === 'ok') assert.deepEqual(sizes, [SIZE, SIZE, 0], `${Math.round(ms)} ms`);
      else {
        assert.deepEqual([r.status, errorCodes(r)], ['timeout', ['RUN_TIMEOUT']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
        assert.deepEqual(sizes, [0, 0, 0], `${Math.round(ms)} ms`);
      }
      // The deadline, and the one file's write under way when it was reached backing out, within
      // the grace a stopped run gives work under way.
      assert.ok(ms < deadline + COMMIT_GRACE_MS, `the run ended ${Math.round(ms)} ms after it started`);
      if (deadline === Math.min(...DEADLINES_MS)) assert.equal(r.status, 'timeout', `${deadline} ms is too short for 128 MiB written and synced`);
    });
  }
});
