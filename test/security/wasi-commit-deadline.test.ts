// Threat: resource exhaustion. A WASI command whose file writes are committed outside its deadline:
// a WASI module's open files are buffers the host writes whole when they are closed or synced, and
// when the module ends by returning or by proc_exit; the files still open at that end were written
// after the deadline had been cleared. A module that opened two files, made each 64 MiB of zeros
// (one fd_filestat_set_size each, within the bytes open files may hold together) and returned made
// the host write and sync 128 MiB with no time limit: its run ended OK some 3 s past its
// max_execution_time of 1.5 s, both files written (until the stop of 2026-12-02). The commit now
// runs under the deadline, in two steps: every file is written beside its name, then all are
// renamed into place. A deadline reached while they are written stops the run (RUN_TIMEOUT), no
// file changed and no temporary file left, once the one write under way has backed out.
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
const DEADLINE_MS = 1500;

describe("the commit of a WASI command's open files is bounded by its deadline", () => {
  const tmp = tempDir('skillctl-wasi-commit-');
  let root: string;

  before(() => {
    root = realpathSync(tmp);
  });

  it('two files of 64 MiB left open at the end: RUN_TIMEOUT at the deadline, no file changed', async () => {
    const granted = join(root, 'granted');
    await mkdir(granted, { recursive: true });
    const names = Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(3, '0')}`);
    for (const name of names) await writeFile(join(granted, name), '');
    const perms = { 'fs.read': [granted], 'fs.write': [granted] };
    const limits = { max_execution_time: `${DEADLINE_MS}ms` };
    const target = await writeWasmBundle(join(root, 'bundle'), 'hostile-commit-flood', { limits, perms });
    const t = performance.now();
    const r = await engine({ cwd: root, target, input: {}, policy: policyFrom({ permissions: perms }, root) });
    const ms = performance.now() - t;
    assert.deepEqual([r.status, errorCodes(r)], ['timeout', ['RUN_TIMEOUT']], `${Math.round(ms)} ms: ${JSON.stringify(r.diagnostics)}`);
    // The deadline, and the one file's write under way when it was reached (64 MiB and its sync,
    // seconds on a busy disk) backing out, within the grace a stopped run gives work under way.
    assert.ok(ms < DEADLINE_MS + COMMIT_GRACE_MS, `the run ended ${Math.round(ms)} ms after it started`);
    // Nothing half-committed: every file as it was, no temporary file beside them.
    assert.deepEqual((await readdir(granted)).sort(), names);
    for (const name of names) assert.equal((await stat(join(granted, name))).size, 0, name);
  });
});
