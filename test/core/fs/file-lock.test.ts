// The write lock that serialises pin: exclusive, released, and taken over when stale.
import assert from 'node:assert/strict';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withFileLock } from '../../../src/core/fs/index.js';
import { processFileLock } from '../../../src/cli/project.js';
import { testFileLock } from '../../helpers/pins.js';
import { removeDir, tempDir } from '../../helpers/project.js';

const require = createRequire(import.meta.url);

describe('file lock', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('runs holders one at a time and removes the lock file', async () => {
    const path = join(dir, 'a.lck');
    const order: string[] = [];
    const hold = (name: string) =>
      withFileLock(path, testFileLock(), async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`${name}-`);
      });
    await Promise.all([hold('x'), hold('y'), hold('z')]);
    for (let i = 0; i < order.length; i += 2) assert.equal(order[i]?.slice(0, 1), order[i + 1]?.slice(0, 1));
    assert.deepEqual(await readdir(dir), []);
  });

  it('takes over a lock whose holder process is gone', async () => {
    const path = join(dir, 'dead.lck');
    await writeFile(path, JSON.stringify({ pid: 999999, hostname: testFileLock().hostname, token: 't' }));
    const ran = await withFileLock(path, { ...testFileLock(), isAlive: (pid) => pid !== 999999 }, async () => 'ran');
    assert.equal(ran, 'ran');
  });

  it('takes over a lock older than staleMs, and times out on a live one: LOCK_BUSY', async () => {
    const path = join(dir, 'old.lck');
    await writeFile(path, JSON.stringify({ pid: 1, hostname: 'elsewhere', token: 't' }));
    await assert.rejects(withFileLock(path, { ...testFileLock(), timeoutMs: 100 }, async () => undefined), { code: 'LOCK_BUSY' });
    const old = new Date(Date.now() - 120_000);
    await utimes(path, old, old);
    assert.equal(await withFileLock(path, testFileLock(), async () => 1), 1);
  });

  // Why skillctl keeps its own lock rather than proper-lockfile (docs/architecture.md): a hook or
  // a pin killed outright must not block the next one until a stale timeout.
  it('a holder killed outright (SIGKILL) is seen dead at once and its lock taken over; proper-lockfile refuses (ELOCKED) until its stale time', async () => {
    const ours = join(dir, 'killed.lck');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(ours)}, JSON.stringify({ pid: process.pid, hostname: require('node:os').hostname(), token: 'k' })); process.kill(process.pid, 'SIGKILL')`;
    spawnSync(process.execPath, ['-e', script]);
    assert.equal(await withFileLock(ours, { ...processFileLock(), timeoutMs: 500 }, async () => 'ran'), 'ran');

    const guarded = join(dir, 'guarded.json');
    await writeFile(guarded, '{}');
    const theirs = `require(${JSON.stringify(require.resolve('proper-lockfile'))}).lockSync(${JSON.stringify(guarded)}); process.kill(process.pid, 'SIGKILL')`;
    spawnSync(process.execPath, ['-e', theirs]);
    const lockfile = require('proper-lockfile') as { lockSync(path: string): () => void };
    assert.throws(() => lockfile.lockSync(guarded), { code: 'ELOCKED' });
  });
});
