// The checked file layer's temporary files written under a run's signal (checked-fs.ts, writeTemp):
// a WASI command's files left open at its end are written under its deadline, and a write of
// 64 MiB under way when the deadline came was finished, and synced, before it backed out (5 s past
// a deadline of 1.5 s on a busy disk, until the stop of 2026-12-02). With a signal the write is
// made in pieces, the signal read between them, and flushed as it goes.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkedFs, createPolicyGate, isFailure, WRITE_PIECE, type CheckedDir } from '../../../src/core/policy/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('checked file layer: a temporary file written under a signal (a run stopped at its deadline)', () => {
  const tmp = tempDir('skillctl-checked-write-');
  const data = Buffer.alloc(64 << 20, 7);

  async function dirOf(): Promise<CheckedDir> {
    const root = realpathSync(tmp);
    const gate = createPolicyGate({ fsRead: [root], fsWrite: [root], netHttp: [], exec: [], env: [] }, { cwd: root, pathEnv: '', protectedPaths: [] });
    const d = await checkedFs(gate, root).openDir(root, 'fs.write');
    assert.ok(!isFailure(d), JSON.stringify(d));
    return d;
  }

  it('aborted while 64 MiB are written: ECANCELED within a piece of it, and no file left', async () => {
    const d = await dirOf();
    const ctrl = new AbortController();
    const announced: string[] = [];
    const writing = d.writeTemp('big.bin', data, 0o644, (path) => announced.push(path), ctrl.signal);
    // Aborted before the first piece (WRITE_PIECE of 64) is written: one write ends before it is read.
    setImmediate(() => ctrl.abort());
    assert.deepEqual(await writing, { kind: 'error', code: 'ECANCELED' });
    assert.equal(announced.length, 1);
    assert.deepEqual(await readdir(realpathSync(tmp)), []);
    await d.close();
  });

  it('the signal is read between pieces of WRITE_PIECE: aborted after two, no third is written', async () => {
    const d = await dirOf();
    let reads = 0;
    // Aborted from its third reading on: before the first piece, before the second, then stopped.
    const signal = {
      get aborted() {
        return ++reads >= 3;
      },
    } as AbortSignal;
    assert.deepEqual(await d.writeTemp('big.bin', data, 0o644, undefined, signal), { kind: 'error', code: 'ECANCELED' });
    assert.equal(reads, 3);
    assert.equal(data.length / WRITE_PIECE, 64);
    assert.deepEqual(await readdir(realpathSync(tmp)), []);
    await d.close();
  });

  it('a signal never aborted: the file is written whole, as without one', async () => {
    const d = await dirOf();
    const name = await d.writeTemp('big.bin', data, 0o600, undefined, new AbortController().signal);
    assert.equal(typeof name, 'string', JSON.stringify(name));
    const written = await readFile(join(realpathSync(tmp), name as string));
    assert.ok(written.equals(data));
    assert.equal((await stat(join(realpathSync(tmp), name as string))).mode & 0o777, 0o600);
    assert.equal(await d.remove(name as string), undefined);
    await d.close();
  });
});
