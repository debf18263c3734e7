import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asyncDirOps, computeContent, dirSource, hashFiles, listAndHash, memorySource, syncDirOps, type DirOps } from '../../../src/core/bundle/index.js';
import { jcsDigest, sha256, treeDigest } from '../../../src/core/digest/index.js';
import { tempDir } from '../../helpers/tmp.js';

function bundle(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('content_digest recipe', () => {
  it('is the JCS sha256 of the sorted {path,size,digest,mode} list, without the manifest', async () => {
    const dir = bundle({ 'skill.yaml': 'ignored', 'b.txt': 'bee', 'a/z.txt': 'zed' });
    chmodSync(join(dir, 'b.txt'), 0o755);
    const c = await computeContent(dirSource(dir));
    const files = [
      { path: 'a/z.txt', size: 3, digest: sha256('zed'), mode: '0644' },
      { path: 'b.txt', size: 3, digest: sha256('bee'), mode: '0755' },
    ] as const;
    assert.deepEqual(c.files, files);
    assert.equal(c.digest, jcsDigest({ files }));
    assert.equal(c.digest, treeDigest([...files].reverse()));
  });

  it('sorts by UTF-8 bytes, not UTF-16 units (U+FF5E sorts before an emoji in UTF-8 but after it in UTF-16)', async () => {
    const dir = bundle({ '\u{ff5e}.txt': '1', '\u{1f600}.txt': '2' });
    const c = await computeContent(dirSource(dir));
    assert.deepEqual(c.files.map((f) => f.path), ['\u{ff5e}.txt', '\u{1f600}.txt']);
  });

  it('excludes signatures.json at the root, .git, node_modules, .skillctl and .skillignore patterns', async () => {
    const dir = bundle({
      'skill.json': '{}',
      'signatures.json': '{}',
      'sub/signatures.json': 'kept',
      '.git/HEAD': 'x',
      // A worktree's or submodule's link to its repository: an absolute path of this machine.
      'vendored/.git': 'gitdir: /home/someone/src/repo/.git/worktrees/vendored\n',
      'node_modules/x/index.js': 'x',
      'deep/node_modules/y.js': 'y',
      '.skillctl/audit.jsonl': 'x',
      '.skillignore': '*.log\nbuild/\n',
      'debug.log': 'x',
      'build/out.bin': 'x',
      'src/main.js': 'x',
    });
    const c = await computeContent(dirSource(dir));
    assert.deepEqual(c.files.map((f) => f.path), ['.skillignore', 'src/main.js', 'sub/signatures.json']);
    assert.equal(c.complete, true);
  });

  it('refuses symlinks (never following them, so a loop cannot hang the walk)', async () => {
    const dir = bundle({ 'a.txt': 'a' });
    symlinkSync('.', join(dir, 'loop'));
    symlinkSync('/etc/passwd', join(dir, 'passwd'));
    const c = await computeContent(dirSource(dir));
    assert.deepEqual(c.diagnostics.map((d) => [d.code, d.file]), [
      ['BUNDLE_SYMLINK', 'loop'],
      ['BUNDLE_SYMLINK', 'passwd'],
    ].sort());
    assert.equal(c.complete, false);
  });

  it('refuses FIFOs and unportable file names', async () => {
    const dir = bundle({ 'a.txt': 'a' });
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    writeFileSync(join(dir, 'new\nline.txt'), 'x');
    writeFileSync(join(dir, 'back\\slash.txt'), 'x');
    const c = await computeContent(dirSource(dir));
    assert.deepEqual(c.diagnostics.map((d) => d.code).sort(), ['BUNDLE_PATH_INVALID', 'BUNDLE_PATH_INVALID', 'BUNDLE_SPECIAL_FILE']);
  });

  it('stops at the file-count bound with BUNDLE_TOO_LARGE', async () => {
    const dir = bundle({ '1': '', '2': '', '3': '' });
    const c = await computeContent(dirSource(dir, { maxFiles: 2, maxTotalBytes: 1e9 }));
    assert.ok(c.diagnostics.some((d) => d.code === 'BUNDLE_TOO_LARGE'));
  });

  it('hashes large files by streaming, with the same digest as hashing the bytes', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024 + 7);
    const dir = bundle({ 'big.bin': big });
    const c = await computeContent(dirSource(dir));
    assert.equal(c.files[0]?.digest, sha256(big));
  });
});

// verify-pins lists and hashes a directory in one pass (listHashed): every file opened once.
describe('listing and hashing in one pass', () => {
  const tree = (): string => {
    const dir = bundle({ 'skill.json': '{}', 'run.sh': '#!/bin/sh\n', 'lib/data.bin': 'd'.repeat(70 * 1024), 'lib/deep/x.txt': 'x' });
    chmodSync(join(dir, 'run.sh'), 0o755);
    symlinkSync('run.sh', join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    return dir;
  };

  for (const [name, ops] of [['thread pool', asyncDirOps], ['blocking', syncDirOps]] as [string, DirOps][]) {
    it(`${name}: gives what a listing then a read of each file gives`, async () => {
      const dir = tree();
      const once = await listAndHash(dirSource(dir, undefined, ops));
      const listing = await dirSource(dir, undefined, ops).list();
      const hashed = await hashFiles(dirSource(dir, undefined, ops), listing.files);
      assert.deepEqual(once, { listing, hashed });
      assert.deepEqual(
        once.hashed.files.map((f) => [f.path, f.size, f.mode]),
        [
          ['lib/data.bin', 70 * 1024, '0644'],
          ['lib/deep/x.txt', 1, '0644'],
          ['run.sh', 10, '0755'],
          ['skill.json', 2, '0644'],
        ],
      );
      assert.deepEqual(once.listing.diagnostics.map((d) => [d.code, d.file]).sort(), [
        ['BUNDLE_SPECIAL_FILE', 'pipe'],
        ['BUNDLE_SYMLINK', 'link'],
      ]);
    });

    it(`${name}: later reads get the bytes that were hashed, not what is on disk now`, async () => {
      const dir = tree();
      const source = dirSource(dir, undefined, ops);
      const { hashed } = await listAndHash(source);
      writeFileSync(join(dir, 'skill.json'), '{"swapped":true}');
      assert.equal((await source.read('skill.json')).toString(), '{}');
      assert.equal(hashed.files.find((f) => f.path === 'skill.json')?.digest, sha256('{}'));
    });

    it(`${name}: does not read a file over the byte bound, and says the bundle is too large`, async () => {
      const dir = tree();
      const { listing, hashed } = await listAndHash(dirSource(dir, { maxFiles: 100, maxTotalBytes: 1024 }, ops));
      assert.ok(listing.diagnostics.some((d) => d.code === 'BUNDLE_TOO_LARGE'));
      assert.equal(hashed.files.some((f) => f.path === 'lib/data.bin'), false, 'the file over the bound has no digest');
    });

    it(`${name}: lists a file it cannot read, and reports it unread`, async () => {
      const dir = tree();
      // Swapped for a FIFO between the directory read and the open: the listing still names it.
      const swapping: DirOps = {
        ...ops,
        hashRegular: async (path, max, keep) => {
          if (path.endsWith('skill.json')) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
          return (ops.hashRegular as NonNullable<DirOps['hashRegular']>)(path, max, keep);
        },
      };
      const r = await listAndHash(dirSource(dir, undefined, swapping));
      assert.ok(r.listing.files.some((f) => f.path === 'skill.json'));
      assert.deepEqual(r.hashed.diagnostics.map((d) => [d.code, d.file, d.message]), [['BUNDLE_UNREADABLE', 'skill.json', 'cannot read file: EINVAL']]);
      assert.equal(r.hashed.files.some((f) => f.path === 'skill.json'), false);
    });
    it(`${name}: reports a file removed before it was opened once, as a listing would`, async () => {
      const dir = tree();
      const removing: DirOps = {
        ...ops,
        hashRegular: async (path, max, keep) => {
          if (path.endsWith('run.sh')) rmSync(path);
          return (ops.hashRegular as NonNullable<DirOps['hashRegular']>)(path, max, keep);
        },
      };
      const r = await listAndHash(dirSource(dir, undefined, removing));
      const found = [...r.listing.diagnostics, ...r.hashed.diagnostics].filter((d) => d.file === 'run.sh');
      assert.deepEqual(found.map((d) => [d.code, d.message]), [['BUNDLE_UNREADABLE', 'cannot stat file: ENOENT']]);
      assert.equal(r.listing.files.some((f) => f.path === 'run.sh'), false);
    });
  }

  it('lists, then hashes, a source without a one-pass listing (an archive or files in memory)', async () => {
    const source = memorySource([{ path: 'a.txt', data: Buffer.from('a'), mode: '0644' }]);
    const r = await listAndHash(source);
    assert.deepEqual(r.hashed.files, [{ path: 'a.txt', size: 1, mode: '0644', digest: sha256('a') }]);
  });
});
