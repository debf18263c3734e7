// Threat: hostile archives (an archive whose entries climb out, are links or devices, or inflate past every bound).
// Reading an archive is reading attacker-controlled input: entries with absolute or climbing paths
// (plain, through the ustar prefix, a pax path or a GNU long name), links, devices, FIFOs, sparse
// entries, duplicates, more entries or bytes than the bound, gzip bombs and malformed streams are
// refused with their code; a refused archive is never unpacked, not even its harmless files. So
// are entries another reader unpacks under another name than this one lists (a reviewer's `tar x`
// would show other files than those hashed and run): a pax GNU.sparse.name or SCHILY.realsize
// (a sparse file to GNU tar, tarfile or bsdtar), two pax headers, two
// GNU long names, or both, for one entry, a directory entry holding data (read by others as more
// entries), a pax size that is no number (0 to tarfile, which reads the file's bytes as entries),
// an old GNU header with a path prefix for tarfile, a .skill entry's Info-ZIP Unicode Path
// field or a name outside ASCII without the UTF-8 flag (CP437 to zipfile), and a .skill file's
// local entry its central directory does not list. The streaming unpacker of pulled and pushed
// layers (same walk) refuses the same, in pieces of any size.
// Through the CLI: `skillctl run x.tgz` and `skillctl pin x.tgz` refuse them (exit 1), leave no
// unpacked copy in TMPDIR and no lock, and the sentinel the paths aim at stays as it was.
// Paths built to make every check of their folders cost their length again (200,000 folders
// deep in a pax header or 32,000 in a .skill, names of dots and spaces, runs of slashes, more
// folders than entries) are refused, or listed, in time and memory proportional to their bytes:
// by validate, run and pin, and as a folder on disk holding a path that long.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { before, describe, it } from 'node:test';
import { streamedArchiveBounds } from '../../src/core/archive/index.js';
import { archiveSourceFromBytes, openArchive, unpackTgz, type BundleBounds } from '../../src/core/bundle/index.js';
import { attackRows, attempt, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { fixture } from '../helpers/paths.js';
import { deepChain, removeDeepChain } from '../helpers/deep-tree.js';
import { rawZip, unicodePathField, type Raw } from '../helpers/raw-zip.js';
import { gzipBomb, paxData, tar, tgz, type RawEntry } from '../helpers/tar.js';
import { leftIn, tempDir } from '../helpers/tmp.js';

async function codesOf(bytes: Buffer, bounds?: BundleBounds): Promise<string[]> {
  const src = await archiveSourceFromBytes(bytes, 'hostile.tgz', bounds);
  return [...new Set((await src.list()).diagnostics.map((d) => d.code))].sort();
}

const ok: RawEntry = { name: 'skill.yaml', data: 'skill_id: x\n' };

/** A file whose path a pax header gives (any length). */
const paxFile = (path: string, data = 'x'): RawEntry[] => [{ name: 'PaxHeaders/f', type: 'x', data: paxData({ path }) }, { name: 'f', data }];

/**
 * The reviewer's archive (under 2 KB compressed): three files 200,000 folders deep. Each folder's
 * path, made for every check of it, ended validate out of memory after 24 s (about 4 GB).
 */
const DEEP: RawEntry[] = [ok, ...[0, 1, 2].flatMap((k) => paxFile(`${'a/'.repeat(200_000)}f${k}`))];

/** 21 files under 1,000 folders each: 21,000 folders in 21 entries, more than the 20,000 entries bound. */
const MANY_FOLDERS: RawEntry[] = [ok, ...Array.from({ length: 21 }, (_, i) => paxFile(`d${i}/${'a/'.repeat(999)}f`)).flat()];

/** One hostile archive per refusal: what it holds and the code it gets. */
const CASES: [string, RawEntry[], string][] = [
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
  // What GNU tar or Python's tarfile unpack under another name than this reader lists (the bytes a
  // reviewer's `tar x` shows are not the ones hashed and run): refused, as data after the end marker is.
  ['a pax GNU.sparse.name, under which GNU tar and tarfile unpack the file', [ok, { name: 'P', type: 'x', data: paxData({ 'GNU.sparse.name': 'skill.yaml' }) }, { name: 'notes.txt', data: 'x' }], 'ARCHIVE_SPECIAL_ENTRY'],
  ['a pax SCHILY.realsize, to which bsdtar pads the file with zeros', [ok, { name: 'P', type: 'x', data: paxData({ 'SCHILY.realsize': '8' }) }, { name: 'notes.txt', data: 'abcd' }], 'ARCHIVE_SPECIAL_ENTRY'],
  ['two pax headers for one entry (tarfile merges them, GNU tar keeps the last)', [ok, { name: 'P', type: 'x', data: paxData({ path: 'run.js' }) }, { name: 'P', type: 'x', data: paxData({ mtime: '1' }) }, { name: 'notes.txt', data: 'x' }], 'ARCHIVE_MALFORMED'],
  ['two GNU long names for one entry (tarfile takes the first, GNU tar the last)', [ok, { name: '././@LongLink', type: 'L', data: 'run.js\0' }, { name: '././@LongLink', type: 'L', data: 'notes.txt\0' }, { name: 'f', data: 'x' }], 'ARCHIVE_MALFORMED'],
  ['a GNU long name and a pax path for one entry (tarfile takes the one, GNU tar the other)', [ok, { name: '././@LongLink', type: 'L', data: 'run.js\0' }, { name: 'P', type: 'x', data: paxData({ path: 'notes.txt' }) }, { name: 'f', data: 'x' }], 'ARCHIVE_MALFORMED'],
  // GNU tar and tarfile read a directory's data as the entries after it: a main.js this reader never saw.
  ['a directory entry holding the header and bytes of a file', [ok, { name: 'd', type: '5', data: tar([{ name: 'main.js', data: 'x' }], Buffer.alloc(0)) }, { name: 'notes.txt', data: 'x' }], 'ARCHIVE_MALFORMED'],
  // GNU tar's default format keeps times of incremental dumps where ustar keeps a prefix; tarfile reads a prefix there all the same.
  ['an old GNU header whose time area tarfile reads as the prefix sub/', [ok, { name: 'main.js', prefix: 'sub', gnu: true, data: 'x' }], 'ARCHIVE_MALFORMED'],
  // tarfile takes a pax size that is no decimal number as 0, and the file's bytes as the entries after it (GNU tar refuses it).
  ['a pax size of " 0" before a file holding the header and bytes of another', [ok, { name: 'P', type: 'x', data: paxData({ size: ' 0' }) }, { name: 'notes.txt', data: tar([{ name: 'main.js', data: 'x' }], Buffer.alloc(0)) }], 'ARCHIVE_MALFORMED'],
  ['three paths 200,000 folders deep', DEEP, 'ARCHIVE_PATH_UNSAFE'],
  ['a path of 4097 bytes', [ok, ...paxFile(`${'b'.repeat(4096)}c`)], 'ARCHIVE_PATH_UNSAFE'],
];

describe('hostile archives: the archive reader refuses them, and unpacks nothing of a refused one', () => {
  const dir = tempDir('skillctl-attack-archive-');

  for (const [name, entries, code] of CASES) {
    it(`${name}: ${code}`, async () => {
      assert.deepEqual(await codesOf(tgz(entries)), [code]);
      const target = join(dir, name.replace(/[^a-z]/g, '-'));
      const src = await archiveSourceFromBytes(tgz(entries), 'hostile.tgz');
      const found = await src.extractTo(target);
      assert.ok(found.some((d) => d.code === code));
      await assert.rejects(stat(target), { code: 'ENOENT' });
    });
  }

  it("an old GNU header (GNU tar's default format) with nothing in its time area is read as any other", async () => {
    assert.deepEqual(await codesOf(tgz([ok, { name: 'main.js', gnu: true, data: 'x' }])), []);
  });

  it('more entries than the bound: ARCHIVE_TOO_LARGE, stops reading', async () => {
    const many = Array.from({ length: 20_001 }, (_, i) => ({ name: `f${i}` }) as RawEntry);
    assert.deepEqual(await codesOf(tgz(many)), ['ARCHIVE_TOO_LARGE']);
  });

  it('paths naming more folders than the entries bound: ARCHIVE_TOO_LARGE, stops reading', async () => {
    assert.deepEqual(await codesOf(tgz(MANY_FOLDERS)), ['ARCHIVE_TOO_LARGE']);
    // A path of 4096 bytes, 2,048 folders deep, is a path like any other.
    assert.deepEqual(await codesOf(tgz([ok, ...paxFile(`${'a/'.repeat(2047)}cd`)])), []);
  });

  it('an entry declaring more bytes than the bound is refused before anything is read', async () => {
    const bytes = tgz([ok, { name: 'huge.bin', size: 0o77777777777 }]);
    assert.deepEqual(await codesOf(bytes), ['ARCHIVE_TOO_LARGE']);
  });

  it('a gzip bomb is refused, not inflated past the bound (default bounds)', async () => {
    // 600 MiB of zeros inside one entry, in well under 1 MiB.
    const bomb = gzipBomb('bomb.bin', 600);
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

  it('a .skill entry with a second name (an Info-ZIP Unicode Path field), which unzip unpacks it under: ARCHIVE_MALFORMED', async () => {
    const skillMd = { name: 'x/SKILL.md', data: Buffer.from('---\nname: x\ndescription: A skill.\n---\n') };
    const codes = async (files: Raw[]): Promise<string[]> => [...new Set((await (await archiveSourceFromBytes(rawZip(files), 'x.skill', undefined, 'skill-zip')).list()).diagnostics.map((d) => d.code))];
    // unzip writes notes.md's bytes over SKILL.md: another skill than the one validated.
    assert.deepEqual(await codes([skillMd, { name: 'x/notes.md', data: Buffer.from('evil'), extra: unicodePathField('x/notes.md', 'x/SKILL.md') }]), ['ARCHIVE_MALFORMED']);
    // A field naming the entry as its own name (Info-ZIP's zip writes one for a name not in ASCII) changes nothing.
    assert.deepEqual(await codes([skillMd, { name: 'x/notes-é.md', extra: unicodePathField('x/notes-é.md', 'x/notes-é.md') }]), []);
  });

  it('a .skill entry named outside ASCII without the UTF-8 flag, which zipfile unpacks as CP437 under another name: ARCHIVE_MALFORMED', async () => {
    const skillMd = { name: 'x/SKILL.md', data: Buffer.from('---\nname: x\ndescription: A skill.\n---\n') };
    const codes = async (files: Raw[]): Promise<string[]> => [...new Set((await (await archiveSourceFromBytes(rawZip(files), 'x.skill', undefined, 'skill-zip')).list()).diagnostics.map((d) => d.code))];
    const plain = rawZip([skillMd, { name: 'x/notes-é.md', cp437: 'both' }]);
    // The differential is real: Python's zipfile lists the entry under another name.
    const path = join(dir, 'cp437.skill');
    await writeFile(path, plain);
    const listed = execFileSync('python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', path], { encoding: 'utf8', env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
    assert.deepEqual(listed.trim().split('\n'), ['x/SKILL.md', 'x/notes-├⌐.md']);
    assert.deepEqual(await codes([skillMd, { name: 'x/notes-é.md', cp437: 'both' }]), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await codes([skillMd, { name: 'x/notes-é.md', cp437: 'central' }]), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await codes([skillMd, { name: 'x/notes-é.md', cp437: 'local' }]), ['ARCHIVE_MALFORMED']);
    // ASCII names read the same in either encoding, and a flagged name as UTF-8 everywhere.
    assert.deepEqual(await codes([skillMd, { name: 'x/notes.md', cp437: 'both' }]), []);
    assert.deepEqual(await codes([skillMd, { name: 'x/notes-é.md' }]), []);
  });

  it('a .skill holding a file its central directory does not list, which bsdtar reading from a pipe unpacks: ARCHIVE_MALFORMED', async () => {
    const skillMd = { name: 'x/SKILL.md', data: Buffer.from('---\nname: x\ndescription: A skill.\n---\n') };
    const listed = async (files: Raw[]): Promise<string[]> => [...new Set((await (await archiveSourceFromBytes(rawZip(files), 'x.skill', undefined, 'skill-zip')).list()).diagnostics.map((d) => d.code))];
    assert.deepEqual(await listed([{ name: 'x/evil.sh', data: Buffer.from('echo pwned'), unlisted: true }, skillMd]), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await listed([skillMd, { name: 'x/evil.sh', data: Buffer.from('echo pwned'), unlisted: true }]), ['ARCHIVE_MALFORMED']);
    assert.deepEqual(await listed([skillMd, { name: 'x/notes.md', deflate: true }]), []);
  });

  it('openArchive refuses a file larger than the bound without reading it', async () => {
    const path = join(dir, 'big.tgz');
    await writeFile(path, Buffer.alloc(300 * 1024));
    const src = await openArchive(path, { maxFiles: 10, maxTotalBytes: 64 * 1024 });
    assert.deepEqual((await src.list()).diagnostics.map((d) => d.code), ['ARCHIVE_TOO_LARGE']);
    await assert.rejects(openArchive(join(dir, 'absent.tgz')), { code: 'INPUT_NOT_FOUND' });
  });
});


/** The streaming unpacker of pulled and pushed layers, fed in pieces of `piece` compressed bytes. */
async function streamed(bytes: Buffer, target: string, bounds?: BundleBounds, piece = 1000): Promise<{ codes: string[]; written: string[] }> {
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += piece) yield bytes.subarray(i, i + piece);
  }
  const src = await unpackTgz(pieces(), target, bounds ?? streamedArchiveBounds(bytes.length), 'hostile.tgz');
  const codes = [...new Set((await src.list()).diagnostics.map((d) => d.code))].sort();
  return { codes, written: (await readdir(target, { recursive: true })).sort() };
}

describe('hostile archives: the streaming unpacker refuses the same, and writes nothing outside its target', () => {
  const dir = tempDir('skillctl-attack-stream-');
  for (const [name, entries, code] of CASES) {
    it(`${name}: ${code}`, async () => {
      const box = join(dir, name.replace(/[^a-z]/g, '-'));
      await mkdir(box);
      const { codes, written } = await streamed(tgz(entries), join(box, 'target'));
      assert.deepEqual(codes, [code]);
      // Only what came before the refused entry, and only inside the target.
      assert.deepEqual(await readdir(box), ['target']);
      assert.ok(written.every((f) => entries.some((e) => e.name === f && e.type === undefined)), written.join(','));
    });
  }

  it('more entries than the bound, an entry over the bound, gzip bombs: ARCHIVE_TOO_LARGE', async () => {
    const many = Array.from({ length: 20_001 }, (_, i) => ({ name: `f${i}` }) as RawEntry);
    assert.deepEqual((await streamed(tgz(many), join(dir, 'many'), undefined, 64 * 1024)).codes, ['ARCHIVE_TOO_LARGE']);
    assert.deepEqual((await streamed(tgz([ok, { name: 'huge.bin', size: 0o77777777777 }]), join(dir, 'huge'))).codes, ['ARCHIVE_TOO_LARGE']);
    // 600 MiB of zeros in one entry: its header is over the bound (16 times 600 KiB, at least 512 MiB).
    const bomb = await streamed(gzipBomb('bomb.bin', 600), join(dir, 'bomb'), undefined, 64 * 1024);
    assert.deepEqual(bomb, { codes: ['ARCHIVE_TOO_LARGE'], written: [] });
    // Many small zero files: the inflated bytes pass the bound (tight bounds), and the walk stops there.
    const entries = Array.from({ length: 50 }, (_, i) => ({ name: `z${i}`, data: Buffer.alloc(64 * 1024) }) as RawEntry);
    assert.deepEqual((await streamed(tgz(entries), join(dir, 'zeros'), { maxFiles: 100, maxTotalBytes: 64 * 1024 })).codes, ['ARCHIVE_TOO_LARGE']);
    // More folders than the bound (tight bounds: 3 files under 40 folders each): the third is not written.
    const folders = [ok, ...[0, 1, 2].flatMap((i) => paxFile(`d${i}/${'a/'.repeat(39)}f`))];
    const foldersRefused = await streamed(tgz(folders), join(dir, 'folders'), { maxFiles: 100, maxTotalBytes: 64 * 1024 });
    assert.equal(foldersRefused.codes.join(), 'ARCHIVE_TOO_LARGE');
    assert.ok(!foldersRefused.written.some((f) => f.startsWith('d2')), foldersRefused.written.join());
  });

  it('malformed: not gzip, bad checksum, truncated, data after the end marker, damaged gzip', async () => {
    const t = tar([ok]);
    const bad = Buffer.from(t);
    bad[0] = 0x5a;
    const damaged = tgz([ok]);
    damaged.writeUInt32LE(damaged.readUInt32LE(damaged.length - 8) ^ 1, damaged.length - 8);
    const inputs = [
      Buffer.from('not a gzip file at all, just text'),
      gzipSync(bad),
      gzipSync(t.subarray(0, 700)),
      tgz([ok], Buffer.concat([Buffer.alloc(1024), Buffer.from('hidden payload')])),
      gzipSync(Buffer.alloc(512, 0x41)),
      damaged,
    ];
    for (const [i, bytes] of inputs.entries()) {
      assert.deepEqual((await streamed(bytes, join(dir, `malformed-${i}`), undefined, 7)).codes, ['ARCHIVE_MALFORMED'], `input ${i}`);
    }
  });
});

/** The hostile archives of the CLI rows: file name, what it holds, the code, its bytes (`sc` names the sentinel). */
const ARCHIVES: [string, string, string, (sc: Scratch) => Buffer][] = [
  ['hard-link', 'a hard link', 'ARCHIVE_LINK', () => tgz([ok, { name: 'passwd', type: '1', linkname: 'skill.yaml' }])],
  ['symlink', 'a symlink to /etc/passwd', 'ARCHIVE_LINK', () => tgz([ok, { name: 'passwd', type: '2', linkname: '/etc/passwd' }])],
  ['device', 'a character device', 'ARCHIVE_SPECIAL_ENTRY', () => tgz([ok, { name: 'null', type: '3' }])],
  ['fifo', 'a FIFO', 'ARCHIVE_SPECIAL_ENTRY', () => tgz([ok, { name: 'pipe', type: '6' }])],
  ['climbs', 'a path climbing to the sentinel', 'ARCHIVE_PATH_UNSAFE', () => tgz([ok, { name: '../../../outside/pwned', data: 'x' }])],
  ['absolute', "the sentinel's absolute path", 'ARCHIVE_PATH_UNSAFE', (sc) => tgz([ok, { name: join(sc.outside, 'pwned'), data: 'x' }])],
  ['pax-path', 'a pax path climbing to the sentinel', 'ARCHIVE_PATH_UNSAFE', () => tgz([ok, { name: 'PaxHeaders/x', type: 'x', data: paxData({ path: '../../../outside/pwned' }) }, { name: 'harmless.txt', data: 'x' }])],
  ['sparse-name', "a file GNU tar and tarfile unpack as skill.yaml (a pax GNU.sparse.name)", 'ARCHIVE_SPECIAL_ENTRY', () =>
    tgz([ok, { name: 'P', type: 'x', data: paxData({ 'GNU.sparse.name': 'skill.yaml' }) }, { name: 'notes.txt', data: 'skill_id: other\n' }])],
  ['bomb', '600 MiB of zeros in 600 KiB (a gzip bomb)', 'ARCHIVE_TOO_LARGE', () => gzipBomb('bomb.bin', 600)],
  ['deep', 'three paths 200,000 folders deep', 'ARCHIVE_PATH_UNSAFE', () => tgz(DEEP)],
];

/** `skillctl run ./<name>.tgz` with TMPDIR in the scratch folder, which must be left empty. */
const runArchive = (name: string) => async (sc: Scratch): Promise<Ran> => runTarget(`./${name}.tgz`, {}, { cwd: sc.work, env: { TMPDIR: join(sc.work, 'tmp') } });
const nothingUnpacked = async (_r: Ran, sc: Scratch): Promise<void> => assert.deepEqual(await leftIn(join(sc.work, 'tmp')), []);
/** `skillctl pin ../<name>.tgz` in a project: no lock written. */
const pinArchive = (name: string) => (sc: Scratch): Promise<Ran> => attempt(['pin', `../${name}.tgz`], { cwd: join(sc.work, 'project') });
const noLock = async (_r: Ran, sc: Scratch): Promise<void> => assert.deepEqual(await readdir(join(sc.work, 'project', 'pins')).catch(() => []), []);

const rows: Attack[] = [
  ...ARCHIVES.map(([name, what, code]): Attack => ({ what: `skillctl run of an archive holding ${what}`, code, exit: 1, attempt: runArchive(name), check: nothingUnpacked })),
  ...ARCHIVES.filter(([name]) => ['hard-link', 'device', 'climbs', 'deep'].includes(name)).map(
    ([name, what, code]): Attack => ({ what: `skillctl pin of an archive holding ${what}`, code, exit: 1, attempt: pinArchive(name), check: noLock }),
  ),
];

describe('hostile archives: skillctl run and pin refuse them, and unpack nothing', () => {
  const s = scratch('skillctl-attack-archive-cli-');
  before(async () => {
    await mkdir(join(s.work, 'tmp'));
    await cp(fixture('pins', 'project'), join(s.work, 'project'), { recursive: true });
    for (const [name, , , make] of ARCHIVES) await writeFile(join(s.work, `${name}.tgz`), make(s));
  });

  attackRows(rows, s);
});

/** 500 files, each named by 2,000 dots and spaces between two letters; two are spelt in other cases. */
const dotted = (i: number): string => `${i}${'. '.repeat(2000)}x`;
const DOTS: RawEntry[] = [ok, ...Array.from({ length: 500 }, (_, i) => paxFile(dotted(i))).flat(), ...paxFile(dotted(0).replace('x', 'X'))];

/** Archives whose paths made each check of their folders or names cost their length again: file name, what it holds, the code, its bytes. */
const COSTLY: [string, string, string, () => Buffer][] = [
  ['deep.tgz', "three paths 200,000 folders deep (the reviewer's .tgz)", 'ARCHIVE_PATH_UNSAFE', () => tgz(DEEP)],
  ['deep.skill', 'three paths 32,000 folders deep in a .skill', 'ARCHIVE_PATH_UNSAFE', () =>
    rawZip([{ name: 'x/SKILL.md', data: Buffer.from('---\nname: x\ndescription: A skill.\n---\n') }, ...[0, 1, 2].map((k) => ({ name: `x/${'a/'.repeat(32_000)}f${k}` }))])],
  ['slashes.tgz', 'a folder entry whose path is a megabyte of slashes', 'ARCHIVE_PATH_UNSAFE', () =>
    tgz([ok, { name: 'PaxHeaders/d', type: 'x', data: paxData({ path: `d${'/'.repeat(1_000_000)}e` }) }, { name: 'd', type: '5' }])],
  ['dots.tgz', '500 names of 4,000 dots and spaces, two of them spelt in other cases', 'BUNDLE_PATH_COLLISION', () => tgz(DOTS)],
  ['folders.tgz', 'paths naming 21,000 folders in 21 entries', 'ARCHIVE_TOO_LARGE', () => tgz(MANY_FOLDERS)],
];

/** `skillctl validate` of a copy of the golden bundle holding a file 30,000 folders deep (60 KB of path). */
async function validateDeepFolder(sc: Scratch): Promise<Ran> {
  const dir = join(sc.work, 'deep-folder');
  await cp(fixture('pack', 'golden-bundle'), dir, { recursive: true });
  await deepChain(dir, 30_000);
  try {
    return await attempt(['validate', join(dir, 'skill.yaml')], { cwd: sc.work });
  } finally {
    await removeDeepChain(dir, 30_000);
  }
}

describe('hostile archives: paths that make every check of their folders cost their length, refused or listed in time', () => {
  const s = scratch('skillctl-attack-archive-paths-');
  before(async () => {
    for (const [name, , , make] of COSTLY) await writeFile(join(s.work, name), make());
  });

  attackRows(
    [
      ...COSTLY.map(([name, what, code]): Attack => ({ what: `skillctl validate of an archive holding ${what}`, code, exit: 1, attempt: (sc) => attempt(['validate', name], { cwd: sc.work }) })),
      { what: 'skillctl validate of a folder holding a file 30,000 folders deep', code: 'BUNDLE_PATH_INVALID', exit: 1, attempt: validateDeepFolder },
    ],
    s,
  );
});
