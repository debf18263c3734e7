import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { computeContent, dirSource } from '../../../src/core/bundle/index.js';
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
