// The two flavours of a directory source's file-system calls behave the same: the thread-pool
// one (callbacks, for the start-up path) and the blocking one (verify-pins' threads).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asyncDirOps, syncDirOps, type DirOps } from '../../../src/core/bundle/dir-ops.js';
import { tempDir } from '../../helpers/tmp.js';

const errCode = async (p: Promise<unknown>): Promise<string | undefined> => p.then(() => undefined, (e: NodeJS.ErrnoException) => e.code);

describe('directory source calls', () => {
  const dir = tempDir('skillctl-dir-ops-');
  const small = join(dir, 'small.txt');
  const big = join(dir, 'big.bin');
  const link = join(dir, 'link.txt');
  writeFileSync(small, 'hello\n');
  // Over the 32 MiB above which a file is hashed as a stream rather than read whole.
  const bytes = Buffer.alloc(33 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 997) bytes[i] = i % 251;
  writeFileSync(big, bytes);
  symlinkSync(small, link);
  mkdirSync(join(dir, 'sub'));
  const subLink = join(dir, 'sub-link');
  symlinkSync(join(dir, 'sub'), subLink);
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const sha = (b: Uint8Array): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

  for (const [name, ops] of [['thread pool', asyncDirOps], ['blocking', syncDirOps]] as [string, DirOps][]) {
    it(`${name}: reads and hashes regular files, small and streamed`, async () => {
      assert.equal((await ops.readRegular(small)).toString(), 'hello\n');
      assert.equal(await ops.digestRegular(small), sha(Buffer.from('hello\n')));
      assert.equal(await ops.digestRegular(big), sha(bytes));
      assert.equal(await ops.readText(small), 'hello\n');
      assert.deepEqual((await ops.readdir(dir)).map((d) => d.name).sort(), ['big.bin', 'fifo', 'link.txt', 'small.txt', 'sub', 'sub-link']);
      assert.equal((await ops.lstat(link)).size > 0, true);
      assert.equal((await ops.stat(link)).size, 6);
      assert.equal(await ops.realpath(link), await ops.realpath(small));
    });

    it(`${name}: refuses a link in the last component, a directory, and a missing file`, async () => {
      assert.equal(await errCode(ops.readRegular(link)), 'ELOOP');
      assert.equal(await errCode(ops.digestRegular(link)), 'ELOOP');
      assert.equal(await errCode(ops.readRegular(join(dir, 'sub'))), 'EINVAL');
      assert.equal(await errCode(ops.digestRegular(join(dir, 'sub'))), 'EINVAL');
      assert.equal(await errCode(ops.readRegular(join(dir, 'missing'))), 'ENOENT');
      assert.equal(await errCode(ops.stat(join(dir, 'missing'))), 'ENOENT');
    });

    it(`${name}: hashes a file once opened, with its size and mode, refusing what readRegular refuses`, async () => {
      const hashRegular = ops.hashRegular as NonNullable<DirOps['hashRegular']>;
      assert.deepEqual(await hashRegular(small, 1e12, 64), { size: 6, mode: '0644', digest: sha(Buffer.from('hello\n')), bytes: Buffer.from('hello\n') });
      assert.deepEqual(await hashRegular(big, 1e12, 64), { size: bytes.length, mode: '0644', digest: sha(bytes) });
      // Over the caller's bound: its size, and nothing read.
      assert.deepEqual(await hashRegular(big, 1024, 64), { size: bytes.length, mode: '0644' });
      assert.equal(await errCode(hashRegular(link, 1e12, 64)), 'ELOOP');
      assert.equal(await errCode(hashRegular(join(dir, 'sub'), 1e12, 64)), 'EINVAL');
      assert.equal(await errCode(hashRegular(join(dir, 'missing'), 1e12, 64)), 'ENOENT');
    });

    it(`${name}: opens a directory as a handle its entries are reached through, refusing a link to one (ELOOP), a file and a FIFO (ENOTDIR)`, async () => {
      const openDir = ops.openDir as NonNullable<DirOps['openDir']>;
      const h = await openDir(join(dir, 'sub'), false);
      try {
        writeFileSync(join(dir, 'sub', 'in.txt'), 'in\n');
        assert.deepEqual((await ops.readdir(h.path)).map((d) => d.name), ['in.txt']);
        assert.equal((await ops.readRegular(`${h.path}/in.txt`)).toString(), 'in\n');
      } finally {
        await h.close();
      }
      assert.equal(await errCode(openDir(subLink, false)), 'ELOOP');
      assert.equal(await errCode(openDir(small, false)), 'ENOTDIR');
      assert.equal(await errCode(openDir(fifo, false)), 'ENOTDIR');
      // A root given through a link is the caller's to judge: followed when asked.
      const root = await openDir(subLink, true);
      assert.deepEqual((await ops.readdir(root.path)).map((d) => d.name), ['in.txt']);
      await root.close();
    });
  }
});
