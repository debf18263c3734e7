// Reading archives is reading attacker-controlled input: every hostile shape is refused with its
// code, nothing is unpacked from a refused archive, and extraction never writes outside its target.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { archiveSourceFromBytes, computeContent, dirSource, openArchive, type BundleBounds } from '../../../src/core/bundle/index.js';
import { buildArchive } from '../../../src/core/pack/index.js';
import { fixture } from '../../helpers/paths.js';
import { removeDir, tempDir } from '../../helpers/project.js';
import { paxData, tar, tgz, type RawEntry } from '../../helpers/tar.js';

async function codesOf(bytes: Buffer, bounds?: BundleBounds): Promise<string[]> {
  const src = await archiveSourceFromBytes(bytes, 'hostile.tgz', bounds);
  return [...new Set((await src.list()).diagnostics.map((d) => d.code))].sort();
}

const ok: RawEntry = { name: 'skill.yaml', data: 'skill_id: x\n' };

describe('archive source: hostile archives are refused', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  const cases: [string, RawEntry[], string][] = [
    ['absolute path', [ok, { name: '/etc/passwd', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['../ escape', [ok, { name: '../outside.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['nested ../ escape', [ok, { name: 'a/../../outside.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['../ through the ustar prefix', [ok, { name: 'x.txt', prefix: '..', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['../ through a pax path', [ok, { name: 'PaxHeaders/x', type: 'x', data: paxData({ path: '../evil.txt' }) }, { name: 'harmless.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['../ through a GNU long name', [ok, { name: '././@LongLink', type: 'L', data: '../evil.txt\0' }, { name: 'harmless.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['backslash', [ok, { name: '..\\evil.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['drive letter', [ok, { name: 'C:/evil.txt', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['control character', [ok, { name: 'a\u0001b', data: 'x' }], 'ARCHIVE_PATH_UNSAFE'],
    ['symbolic link', [ok, { name: 'passwd', type: '2', linkname: '/etc/passwd' }], 'ARCHIVE_LINK'],
    ['hard link', [ok, { name: 'passwd', type: '1', linkname: 'skill.yaml' }], 'ARCHIVE_LINK'],
    ['pax linkpath on a file', [ok, { name: 'PaxHeaders/x', type: 'x', data: paxData({ linkpath: '/etc/passwd' }) }, { name: 'f.txt', data: 'x' }], 'ARCHIVE_LINK'],
    ['character device', [ok, { name: 'null', type: '3' }], 'ARCHIVE_SPECIAL_ENTRY'],
    ['block device', [ok, { name: 'sda', type: '4' }], 'ARCHIVE_SPECIAL_ENTRY'],
    ['FIFO', [ok, { name: 'pipe', type: '6' }], 'ARCHIVE_SPECIAL_ENTRY'],
    ['sparse file', [ok, { name: 'sparse', type: 'S' }], 'ARCHIVE_SPECIAL_ENTRY'],
    ['global header setting a path', [{ name: 'g', type: 'g', data: paxData({ path: 'x' }) }, ok], 'ARCHIVE_SPECIAL_ENTRY'],
    ['duplicate path', [ok, { name: 'skill.yaml', data: 'other\n' }], 'ARCHIVE_DUPLICATE_ENTRY'],
    ['a file that is also a directory', [ok, { name: 'a', data: 'x' }, { name: 'a/b', data: 'y' }], 'ARCHIVE_DUPLICATE_ENTRY'],
  ];
  for (const [name, entries, code] of cases) {
    it(`${name}: ${code}`, async () => {
      assert.deepEqual(await codesOf(tgz(entries)), [code]);
      // A refused archive is never unpacked, not even its harmless files.
      const target = join(dir, name.replace(/[^a-z]/g, '-'));
      const src = await archiveSourceFromBytes(tgz(entries), 'hostile.tgz');
      const found = await src.extractTo(target);
      assert.ok(found.some((d) => d.code === code));
      await assert.rejects(stat(target), { code: 'ENOENT' });
    });
  }

  it('more entries than the bound: ARCHIVE_TOO_LARGE, stops reading', async () => {
    const many = Array.from({ length: 20_001 }, (_, i) => ({ name: `f${i}` }) as RawEntry);
    assert.deepEqual(await codesOf(tgz(many)), ['ARCHIVE_TOO_LARGE']);
  });

  it('an entry declaring more bytes than the bound is refused before anything is read', async () => {
    const bytes = tgz([ok, { name: 'huge.bin', size: 0o77777777777 }]);
    assert.deepEqual(await codesOf(bytes), ['ARCHIVE_TOO_LARGE']);
  });

  it('a gzip bomb is refused, not inflated past the bound (default bounds)', async () => {
    // 600 MiB of zeros inside one entry compresses to about 600 KiB.
    const size = 600 * 1024 * 1024;
    const head = tar([{ name: 'bomb.bin', size }], Buffer.alloc(0));
    const zeros = Buffer.alloc(size + 1024);
    const bomb = gzipSync(Buffer.concat([head, zeros]), { level: 1 });
    assert.ok(bomb.length < 4 * 1024 * 1024);
    const started = process.memoryUsage().rss;
    assert.deepEqual(await codesOf(bomb), ['ARCHIVE_TOO_LARGE']);
    assert.ok(process.memoryUsage().rss - started < 1024 * 1024 * 1024);
  });

  it('a gzip bomb of many small files is refused at the inflate bound (tight bounds)', async () => {
    const bounds = { maxFiles: 100, maxTotalBytes: 64 * 1024 };
    const entries = Array.from({ length: 50 }, (_, i) => ({ name: `z${i}`, data: Buffer.alloc(64 * 1024) }) as RawEntry);
    assert.deepEqual(await codesOf(tgz(entries), bounds), ['ARCHIVE_TOO_LARGE']);
  });

  it('malformed: not gzip, bad checksum, truncated, data after the end marker', async () => {
    assert.deepEqual(await codesOf(Buffer.from('not a gzip file at all, just text')), ['ARCHIVE_MALFORMED']);
    const t = tar([ok]);
    const bad = Buffer.from(t);
    bad[0] = 0x5a;
    assert.deepEqual(await codesOf(gzipSync(bad)), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await codesOf(gzipSync(t.subarray(0, 700))), ['ARCHIVE_MALFORMED']);
    const trailing = Buffer.concat([Buffer.alloc(1024), Buffer.from('hidden payload')]);
    assert.deepEqual(await codesOf(tgz([ok], trailing)), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await codesOf(gzipSync(Buffer.alloc(512, 0x41))), ['ARCHIVE_MALFORMED']);
  });

  it('openArchive refuses a file larger than the bound without reading it', async () => {
    const path = join(dir, 'big.tgz');
    await writeFile(path, Buffer.alloc(300 * 1024));
    const src = await openArchive(path, { maxFiles: 10, maxTotalBytes: 64 * 1024 });
    assert.deepEqual((await src.list()).diagnostics.map((d) => d.code), ['ARCHIVE_TOO_LARGE']);
    await assert.rejects(openArchive(join(dir, 'absent.tgz')), { code: 'INPUT_NOT_FOUND' });
  });
});

describe('archive source: safe archives', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('accepts ./ prefixes, directory entries and a git-archive comment header', async () => {
    const src = await archiveSourceFromBytes(
      tgz([
        { name: 'pax_global_header', type: 'g', data: paxData({ comment: '0123456789abcdef0123456789abcdef01234567' }) },
        { name: './', type: '5', mode: 0o755 },
        { name: './lib/', type: '5', mode: 0o755 },
        { name: './lib/run.sh', data: '#!/bin/sh\n', mode: 0o755 },
        { name: './skill.yaml', data: 'x: 1\n' },
      ]),
      'ok.tgz',
    );
    const listing = await src.list();
    assert.deepEqual(listing.diagnostics, []);
    assert.deepEqual(listing.files, [
      { path: 'lib/run.sh', size: 10, mode: '0755' },
      { path: 'skill.yaml', size: 5, mode: '0644' },
    ]);
  });

  it('lists the same files and content digest as the directory it was packed from', async () => {
    const bundle = fixture('pack', 'golden-bundle');
    const dirSrc = dirSource(bundle);
    const { bytes } = await buildArchive((await dirSrc.list()).files, (p) => dirSrc.read(p));
    const archive = await archiveSourceFromBytes(bytes, 'golden.tgz');
    assert.deepEqual((await archive.list()).files, (await dirSrc.list()).files);
    assert.equal((await computeContent(archive)).digest, (await computeContent(dirSrc)).digest);
  });

  it('applies .skillignore and the excluded directories as a directory does', async () => {
    const src = await archiveSourceFromBytes(
      tgz([
        { name: '.skillignore', data: '*.log\ncache/\n' },
        { name: 'skill.yaml', data: 'x: 1\n' },
        { name: 'debug.log', data: 'x' },
        { name: 'cache/a.bin', data: 'x' },
        { name: '.git/config', data: 'x' },
        { name: 'sub/node_modules/m/index.js', data: 'x' },
        { name: 'sub/.skillctl/state', data: 'x' },
        { name: 'sub/.git', data: 'a file named .git is a file' },
      ]),
      'ignore.tgz',
    );
    assert.deepEqual(
      (await src.list()).files.map((f) => f.path),
      ['.skillignore', 'skill.yaml', 'sub/.git'],
    );
  });

  it('extracts only inside the target, with modes, and refuses a non-empty target', async () => {
    const bytes = tgz([
      { name: 'skill.yaml', data: 'x: 1\n' },
      { name: 'bin/run.sh', data: '#!/bin/sh\n', mode: 0o4755 },
    ]);
    const src = await archiveSourceFromBytes(bytes, 'x.tgz');
    const target = join(dir, 'out');
    assert.deepEqual(await src.extractTo(target), []);
    assert.deepEqual((await readdir(target)).sort(), ['bin', 'skill.yaml']);
    assert.equal((await readFile(join(target, 'bin', 'run.sh'), 'utf8')), '#!/bin/sh\n');
    // setuid is never extracted: modes are 0644 or 0755 only.
    assert.equal((await stat(join(target, 'bin', 'run.sh'))).mode & 0o7777, 0o755);
    assert.equal((await stat(join(target, 'skill.yaml'))).mode & 0o7777, 0o644);
    const again = await src.extractTo(target);
    assert.deepEqual(again.map((d) => d.code), ['ARCHIVE_TARGET_INVALID']);
    const empty = join(dir, 'empty');
    await mkdir(empty);
    assert.deepEqual(await src.extractTo(empty), []);
  });

  it('reads files and digests from memory; a path outside the listing is not found', async () => {
    const src = await archiveSourceFromBytes(tgz([{ name: 'skill.yaml', data: 'x: 1\n' }]), 'x.tgz');
    assert.equal((await src.read('skill.yaml')).toString(), 'x: 1\n');
    assert.match(await src.digest('skill.yaml'), /^sha256:[0-9a-f]{64}$/);
    await assert.rejects(src.read('../skill.yaml'), { code: 'INPUT_NOT_FOUND' });
  });
});
