// Reading .skill files: what pack writes reads back file for file, and every hostile ZIP is a
// finding with its code, never an exception, a write, or an unbounded inflate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSkillZip, readZip, writeZip, type ArchiveBounds } from '../../../src/core/archive/index.js';
import { rawZip } from '../../helpers/raw-zip.js';

const BOUNDS: ArchiveBounds = { maxFiles: 100, maxTotalBytes: 1024 * 1024 };

const codes = (bytes: Buffer): string[] => readZip(bytes, BOUNDS).diagnostics.map((d) => d.code);

describe('readZip and readSkillZip', () => {
  it('read back what writeZip wrote: paths inside the folder, bytes and modes', async () => {
    const written = await writeZip([
      { path: 'demo/SKILL.md', data: Buffer.from('---\nname: demo\n---\n'.repeat(50)), mode: '0644' },
      { path: 'demo/scripts/run.sh', data: Buffer.from('#!/bin/sh\n'), mode: '0755' },
    ]);
    const r = readSkillZip(written.value?.bytes as Buffer, BOUNDS);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.folder, 'demo');
    assert.deepEqual([...r.entries.keys()], ['SKILL.md', 'scripts/run.sh']);
    assert.equal(r.entries.get('SKILL.md')?.data.toString(), '---\nname: demo\n---\n'.repeat(50));
    assert.equal((r.entries.get('scripts/run.sh')?.mode ?? 0) & 0o777, 0o755);
  });

  it('refuses paths that leave the archive, links, devices and encrypted entries, and keeps the rest', () => {
    const bytes = rawZip([
      { name: 'demo/ok.md' },
      { name: 'demo/../../etc/passwd' },
      { name: '/abs' },
      { name: 'demo/link', mode: 0o120777, data: Buffer.from('/etc/passwd') },
      { name: 'demo/fifo', mode: 0o010644 },
      { name: 'demo/secret', flags: 1 },
    ]);
    const r = readZip(bytes, BOUNDS);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['ARCHIVE_PATH_UNSAFE', 'ARCHIVE_PATH_UNSAFE', 'ARCHIVE_LINK', 'ARCHIVE_SPECIAL_ENTRY', 'ARCHIVE_SPECIAL_ENTRY'],
    );
    assert.deepEqual([...r.entries.keys()], ['demo/ok.md']);
  });

  it('refuses a path twice, a local header naming another file, and a wrong CRC or size', () => {
    assert.deepEqual(codes(rawZip([{ name: 'd/a' }, { name: 'd/a', data: Buffer.from('other') }])), ['ARCHIVE_DUPLICATE_ENTRY']);
    assert.deepEqual(codes(rawZip([{ name: 'd/a', localName: 'd/b' }])), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(codes(rawZip([{ name: 'd/a', crc: 1 }])), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(codes(rawZip([{ name: 'd/a', data: Buffer.from('abc'), deflate: true, size: 2 }])), ['ARCHIVE_MALFORMED']);
  });

  it('refuses a file that is also a directory (`a` and `a/b`), as the tar walk does, whatever their order', () => {
    for (const files of [
      [{ name: 'd/a' }, { name: 'd/a/b' }],
      [{ name: 'd/a/b/c' }, { name: 'd/a' }],
    ]) {
      const r = readZip(rawZip(files), BOUNDS);
      assert.deepEqual(
        r.diagnostics.map((d) => [d.code, d.message]),
        [['ARCHIVE_DUPLICATE_ENTRY', 'd/a is a file and also a directory']],
      );
      assert.deepEqual([...r.entries.keys()], ['d/a']);
    }
    // A name that only begins like the file (`a-x`, `ab`) is no directory of it.
    assert.deepEqual(codes(rawZip([{ name: 'd/a' }, { name: 'd/a-x/b' }, { name: 'd/ab/c' }])), []);
  });

  it('refuses a path over 4096 bytes, and paths naming more folders than the entries bound', () => {
    const r = readZip(rawZip([{ name: `d/${'a/'.repeat(2046)}bc` }, { name: `d/${'a/'.repeat(2046)}bcd` }, { name: `d/${'a/'.repeat(32_000)}f` }]), { maxFiles: 3000, maxTotalBytes: 1024 });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['ARCHIVE_PATH_UNSAFE', 'ARCHIVE_PATH_UNSAFE']);
    assert.deepEqual([...r.entries.keys()], [`d/${'a/'.repeat(2046)}bc`]);
    // 100 folders are the bound: d/a/…/a (99 folders) holds its file, a 101st folder is one too many.
    assert.deepEqual(codes(rawZip([{ name: `d/${'a/'.repeat(98)}f` }, { name: 'd/b/f' }])), []);
    assert.deepEqual(codes(rawZip([{ name: `d/${'a/'.repeat(98)}f` }, { name: 'd/b/f' }, { name: 'd/c/f' }])), ['ARCHIVE_TOO_LARGE']);
  });

  it('a decompression bomb is refused by its declared size, and inflating past the declared size stops there', () => {
    const bomb = Buffer.alloc(8 * 1024 * 1024);
    assert.deepEqual(codes(rawZip([{ name: 'd/bomb', data: bomb, deflate: true }])), ['ARCHIVE_TOO_LARGE']);
    // Declares 10 bytes, holds 8 MiB: the inflate stops at the bound.
    const lying = readZip(rawZip([{ name: 'd/bomb', data: bomb, deflate: true, size: 10 }]), BOUNDS);
    assert.deepEqual(lying.diagnostics.map((d) => [d.code, d.message]), [['ARCHIVE_MALFORMED', 'inflates to more than its declared 10 bytes']]);
  });

  it('refuses data after the end record, a file that is not a ZIP, and more entries than the bound', () => {
    assert.deepEqual(codes(rawZip([{ name: 'd/a' }], Buffer.from('hidden'))), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(codes(Buffer.from('not a zip at all, not even close')), ['ARCHIVE_MALFORMED']);
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `d/${i}` }));
    assert.deepEqual(codes(rawZip(many)), ['ARCHIVE_TOO_LARGE']);
  });

  it('a .skill file is one top-level folder and nothing beside it', () => {
    const two = readSkillZip(rawZip([{ name: 'a/SKILL.md' }, { name: 'b/SKILL.md' }]), BOUNDS);
    const loose = readSkillZip(rawZip([{ name: 'SKILL.md' }]), BOUNDS);
    const empty = readSkillZip(rawZip([]), BOUNDS);
    for (const r of [two, loose, empty]) {
      assert.equal(r.folder, undefined);
      assert.equal(r.entries.size, 0);
    }
    assert.deepEqual(
      [two, loose, empty].map((r) => r.diagnostics.map((d) => d.message)),
      [
        ['a .skill file holds exactly one top-level folder, named after the skill, and nothing beside it'],
        ['a .skill file holds exactly one top-level folder, named after the skill, and nothing beside it'],
        ['the .skill file holds no files'],
      ],
    );
  });
});
