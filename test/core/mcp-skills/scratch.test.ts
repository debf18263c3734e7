// Which scratch folders a pull may remove: only those a dead pull of this host made, and those of
// another host unchanged for longer than the lock's takeover age.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isScratch, scratchName, sweepScratch } from '../../../src/core/mcp-skills/scratch.js';
import { testFileLock } from '../../helpers/file-lock.js';
import { tempDir } from '../../helpers/tmp.js';

const TAG = '0123456789ab';

describe('scratch folders of pulls', () => {
  it('are named for their maker, and told apart by kind', () => {
    const name = scratchName('pdf-notes', 'pull', { pid: 42, hostname: 'build-1' }, TAG);
    assert.match(name, /^\.pdf-notes\.pull-42-[0-9a-f]{12}-0123456789ab$/);
    assert.equal(isScratch(name, 'pull'), true);
    assert.equal(isScratch(name, 'old'), false);
    assert.equal(isScratch('pdf-notes', 'pull'), false);
    assert.equal(isScratch('.pdf-notes.pull-0123456789ab', 'pull'), false, 'a name without its maker (made before makers were named) is not provably abandoned');
  });

  it('sweeping removes those of dead processes of this host and old ones of another host, and leaves a live process, this one, another host\'s recent ones and earlier copies alone', async () => {
    const out = tempDir('skillctl-scratch-');
    const lock = testFileLock();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const live = spawn('sleep', ['30']);
    try {
      const names = {
        dead: scratchName('a', 'pull', { pid: Number(dead), hostname: lock.hostname }, TAG),
        deadOld: scratchName('a', 'old', { pid: Number(dead), hostname: lock.hostname }, TAG),
        live: scratchName('b', 'pull', { pid: live.pid as number, hostname: lock.hostname }, TAG),
        mine: scratchName('c', 'pull', lock, TAG),
        elsewhere: scratchName('d', 'pull', { pid: Number(dead), hostname: `${lock.hostname}-other` }, TAG),
        elsewhereOld: scratchName('f', 'pull', { pid: process.pid, hostname: `${lock.hostname}-other` }, TAG),
        elsewhereOldCopy: scratchName('f', 'old', { pid: process.pid, hostname: `${lock.hostname}-other` }, TAG),
        skill: 'e',
      };
      for (const n of Object.values(names)) mkdirSync(join(out, n));
      // Unchanged for longer than the lock's takeover age: its pull is past its lock wait, and a lock held that long is taken over.
      const then = new Date(Date.now() - lock.staleMs - 1_000);
      for (const n of [names.elsewhereOld, names.elsewhereOldCopy]) utimesSync(join(out, n), then, then);
      const gone = [names.dead, names.elsewhereOld].sort();
      assert.deepEqual(await sweepScratch(out, lock), gone);
      assert.deepEqual(readdirSync(out).sort(), Object.values(names).filter((n) => !gone.includes(n)).sort());
    } finally {
      live.kill();
    }
  });

  it('sweeping a folder that does not exist removes nothing', async () => {
    assert.deepEqual(await sweepScratch(join(tempDir(), 'missing'), testFileLock()), []);
  });
});
