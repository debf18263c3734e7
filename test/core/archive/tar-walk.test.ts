// The guarded tar walk gives the same files and findings whatever the size of the pieces it is fed:
// one byte at a time, across block boundaries, or the whole archive at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_ARCHIVE_BOUNDS, TarWalk } from '../../../src/core/archive/index.js';
import { paxData, tar, type RawEntry } from '../../helpers/tar.js';

/** The files (path, mode, bytes) and finding codes of `bytes` fed in pieces of `piece` bytes. */
function walk(bytes: Buffer, piece: number): { files: [string, number, string][]; codes: string[] } {
  const w = new TarWalk(DEFAULT_ARCHIVE_BOUNDS);
  const files: [string, number, string][] = [];
  let current: { path: string; mode: number; parts: Buffer[] } | undefined;
  for (let i = 0; i < bytes.length; i += piece) {
    for (const e of w.push(bytes.subarray(i, i + piece))) {
      if (e.kind === 'file') current = { path: e.path, mode: e.mode, parts: [] };
      // A piece is only valid until the next push: copied, as a consumer that keeps it must.
      else if (e.kind === 'data') current?.parts.push(Buffer.from(e.bytes));
      else if (current !== undefined) files.push([current.path, current.mode, Buffer.concat(current.parts).toString('latin1')]);
    }
  }
  w.end();
  return { files, codes: w.diagnostics.map((d) => d.code) };
}

const entries: RawEntry[] = [
  { name: 'skill.yaml', data: 'skill_id: x\n' },
  { name: 'dir', type: '5' },
  { name: 'dir/run.sh', data: '#!/bin/sh\necho hi\n', mode: 0o755 },
  { name: 'PaxHeaders/long', type: 'x', data: paxData({ path: `${'d/'.repeat(80)}long.txt` }) },
  { name: 'ignored-name', data: 'long name content' },
  { name: 'big.bin', data: Buffer.alloc(5000, 0x61) },
  { name: 'empty', data: '' },
];

describe('TarWalk: pieces of any size', () => {
  it('gives the same files, modes and bytes for pieces of 1, 511, 512, 513 bytes and the whole archive', () => {
    const bytes = tar(entries);
    const whole = walk(bytes, bytes.length);
    assert.deepEqual(whole.codes, []);
    assert.deepEqual(
      whole.files.map(([p, m, d]) => [p, m & 0o111, d.length]),
      [
        ['skill.yaml', 0, 12],
        ['dir/run.sh', 0o111, 18],
        [`${'d/'.repeat(80)}long.txt`, 0, 17],
        ['big.bin', 0, 5000],
        ['empty', 0, 0],
      ],
    );
    for (const piece of [1, 511, 512, 513]) assert.deepEqual(walk(bytes, piece), whole, `pieces of ${piece}`);
  });

  it('a refusal in one piece or spread over many gives the same codes', () => {
    const bytes = tar([entries[0] as RawEntry, { name: 'passwd', type: '2', linkname: '/etc/passwd' }, { name: 'skill.yaml', data: 'again' }]);
    for (const piece of [1, 100, bytes.length]) {
      const r = walk(bytes, piece);
      assert.deepEqual(r.codes, ['ARCHIVE_LINK', 'ARCHIVE_DUPLICATE_ENTRY']);
      assert.deepEqual(r.files.map(([p]) => p), ['skill.yaml']);
    }
  });

  it('a file cut short is never completed, and the archive is malformed', () => {
    const whole = tar(entries);
    const bytes = whole.subarray(0, whole.indexOf(Buffer.alloc(100, 0x61)) + 100);
    const r = walk(bytes, 64);
    assert.deepEqual(r.codes, ['ARCHIVE_MALFORMED']);
    assert.deepEqual(
      r.files.map(([p]) => p),
      ['skill.yaml', 'dir/run.sh', `${'d/'.repeat(80)}long.txt`],
    );
  });
});

/** The paths of the files passed on and the finding codes, fed whole, with `bounds`. */
function paths(list: readonly RawEntry[], bounds = DEFAULT_ARCHIVE_BOUNDS): { files: string[]; codes: string[] } {
  const w = new TarWalk(bounds);
  const files = w.push(tar(list)).flatMap((e) => (e.kind === 'file' ? [e.path] : []));
  w.end();
  return { files, codes: w.diagnostics.map((d) => d.code) };
}

describe('TarWalk: bounds', () => {
  it('more entries than the bound (2 here): one ARCHIVE_TOO_LARGE, and nothing after it is walked', () => {
    const r = paths(['a', 'b', 'c', 'd'].map((name) => ({ name, data: 'x' })), { maxFiles: 2, maxTotalBytes: 1024 });
    assert.deepEqual(r, { files: ['a', 'b'], codes: ['ARCHIVE_TOO_LARGE'] });
  });

  it('more folders than the entries bound (9 here): ARCHIVE_TOO_LARGE, and the walk stops at the file that passes it', () => {
    const bounds = { maxFiles: 9, maxTotalBytes: 1024 * 1024 };
    const r = paths([{ name: 'd0/a/b/c/d/f', data: 'x' }, { name: 'd0/a/b/c/d/g', data: 'x' }, { name: 'd1/a/b/c/d/f', data: 'x' }, { name: 'later', data: 'x' }], bounds);
    assert.deepEqual(r, { files: ['d0/a/b/c/d/f', 'd0/a/b/c/d/g'], codes: ['ARCHIVE_TOO_LARGE'] });
  });
});

/** A file whose path a pax header gives (any length). */
const paxFile = (path: string): RawEntry[] => [{ name: 'PaxHeaders/f', type: 'x', data: paxData({ path }) }, { name: 'f', data: 'x' }];

describe('TarWalk: paths of any length', () => {
  it("the reviewer's archive, three files 200,000 folders deep: each refused, ARCHIVE_PATH_UNSAFE, the walk going on", () => {
    const deep = [0, 1, 2].flatMap((k) => paxFile(`${'a/'.repeat(200_000)}f${k}`));
    const r = paths([entries[0] as RawEntry, ...deep, { name: 'after.txt', data: 'x' }]);
    assert.deepEqual(r, { files: ['skill.yaml', 'after.txt'], codes: ['ARCHIVE_PATH_UNSAFE', 'ARCHIVE_PATH_UNSAFE', 'ARCHIVE_PATH_UNSAFE'] });
  });

  it('a path of 4096 bytes passes and one of 4097 is refused, in UTF-8 bytes', () => {
    const r = paths([...paxFile(`${'a/'.repeat(2047)}bc`), ...paxFile(`${'a/'.repeat(2047)}bcd`), ...paxFile(`${'\u00e9'.repeat(2048)}`), ...paxFile(`${'\u00e9'.repeat(2048)}x`)]);
    assert.deepEqual(r, { files: [`${'a/'.repeat(2047)}bc`, '\u00e9'.repeat(2048)], codes: ['ARCHIVE_PATH_UNSAFE', 'ARCHIVE_PATH_UNSAFE'] });
  });

  it("a folder entry's trailing slashes are not part of its path, however many; a megabyte of slashes inside one is refused", () => {
    assert.deepEqual(paths([{ name: 'x///', type: '5' }, { name: 'x', data: 'y' }]).codes, ['ARCHIVE_DUPLICATE_ENTRY']);
    const slashes = paths([{ name: 'PaxHeaders/d', type: 'x', data: paxData({ path: `d${'/'.repeat(1_000_000)}e` }) }, { name: 'd', type: '5' }, { name: 'f', data: 'x' }]);
    assert.deepEqual(slashes, { files: ['f'], codes: ['ARCHIVE_PATH_UNSAFE'] });
  });
});
