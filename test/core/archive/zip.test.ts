import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { unzipSync, zipSync } from 'fflate';
import { sha256 } from '../../../src/core/digest/index.js';
import { writeZip, type WrittenZip, type ZipEntry } from '../../../src/core/archive/index.js';
import { tempDir } from '../../helpers/tmp.js';

const ENTRIES: ZipEntry[] = [
  { path: 'demo/SKILL.md', data: Buffer.from('---\nname: demo\ndescription: A demo.\n---\n' + 'Repeat me. '.repeat(200)), mode: '0644' },
  { path: 'demo/scripts/run.sh', data: Buffer.from('#!/bin/sh\necho hi\n'), mode: '0755' },
  { path: 'demo/assets/tiny.bin', data: Buffer.from([1, 2, 3]), mode: '0644' },
  { path: 'demo/références/é.md', data: Buffer.from('unicode name\n'), mode: '0644' },
];

// Python's zipfile is an independent reader: names, sizes, CRCs, timestamps and modes as it sees them.
const PY = `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
out = []
for i in z.infolist():
    out.append({"name": i.filename, "size": i.file_size, "date": list(i.date_time), "mode": oct(i.external_attr >> 16),
                "system": i.create_system, "utf8": bool(i.flag_bits & 0x800), "method": i.compress_type, "extra": len(i.extra)})
print(json.dumps({"bad": bad, "entries": out}))
`;

/** The archive of `entries`; these tests write only archives that fit. */
async function zipOf(entries: readonly ZipEntry[]): Promise<WrittenZip> {
  const r = await writeZip(entries);
  assert.ok(r.ok && r.value !== undefined, JSON.stringify(r.diagnostics));
  return r.value;
}

describe('deterministic ZIP writer', () => {
  it('writes the same bytes every time, and the bytes this test pins (any Node version, any CPU)', async () => {
    const a = await zipOf(ENTRIES);
    const b = await zipOf(ENTRIES);
    assert.ok(a.bytes.equals(b.bytes));
    // Pinned: a change here means archives are no longer reproducible across skillctl versions.
    assert.equal(sha256(a.bytes), 'sha256:2eb924edd6d60d42a755ed61a229004cbfe8e52b474c391213ceb69f0c524091');
  });

  it('round-trips through fflate and through Python zipfile, with fixed time, Unix modes and UTF-8 names', async () => {
    const { bytes, entries } = await zipOf(ENTRIES);
    const back = unzipSync(new Uint8Array(bytes));
    assert.deepEqual(Object.keys(back), ENTRIES.map((e) => e.path));
    for (const e of ENTRIES) assert.ok(Buffer.from(back[e.path] as Uint8Array).equals(e.data), e.path);
    assert.deepEqual(entries.map((e) => e.method), ['deflate', 'store', 'store', 'store']);

    const file = join(tempDir(), 'a.zip');
    writeFileSync(file, bytes);
    const r = spawnSync('python3', ['-c', PY, file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const seen = JSON.parse(r.stdout) as { bad: string | null; entries: Record<string, unknown>[] };
    assert.equal(seen.bad, null);
    assert.deepEqual(
      seen.entries.map((e) => [e.name, e.date, e.mode, e.system, e.utf8, e.extra]),
      ENTRIES.map((e) => [e.path, [1980, 1, 1, 0, 0, 0], e.mode === '0755' ? '0o100755' : '0o100644', 3, true, 0]),
    );
  });

  it('refuses entry paths that are absolute or climb out', async () => {
    for (const path of ['/etc/passwd', '../x', 'a/../../x', 'a//b', 'a\\b', '']) {
      await assert.rejects(writeZip([{ path, data: Buffer.from('x'), mode: '0644' }]), /not a clean relative path/);
    }
  });

  it('writes an empty archive as just the end record', async () => {
    const { bytes } = await zipOf([]);
    assert.equal(bytes.length, 22);
    assert.equal(bytes.readUInt32LE(0), 0x06054b50);
  });

  it('returns BUNDLE_TOO_LARGE, not an exception, for more entries than ZIP without ZIP64 can count', async () => {
    const many = Array.from({ length: 0x10000 }, (_, i): ZipEntry => ({ path: `f${i}`, data: Buffer.alloc(0), mode: '0644' }));
    const r = await writeZip(many);
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['BUNDLE_TOO_LARGE']);
  });
});

/** The entry names, in archive order, as Python's zipfile reads them (an independent reader). */
function pythonNames(bytes: Uint8Array): string[] {
  const file = join(tempDir(), 'names.zip');
  writeFileSync(file, bytes);
  const r = spawnSync('python3', ['-c', PY, file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { entries: { name: string }[] }).entries.map((e) => e.name);
}

// Why skillctl keeps its own ZIP writer rather than fflate's zipSync (docs/architecture.md): each
// case is a promise writeZip keeps and zipSync, given fixed times and attributes, does not.
describe('writeZip against fflate zipSync (why the writer is skillctl\'s own)', () => {
  it('keeps the order it is given; zipSync takes entries from object keys, which put integer-like names first', async () => {
    const entries: ZipEntry[] = ['b.txt', '10', '2'].map((path) => ({ path, data: Buffer.from(path), mode: '0644' }));
    assert.deepEqual(pythonNames((await zipOf(entries)).bytes), ['b.txt', '10', '2']);
    assert.deepEqual(pythonNames(zipSync(Object.fromEntries(entries.map((e) => [e.path, e.data])))), ['2', '10', 'b.txt']);
  });

  it('writes a file named __proto__ (a name a folder can hold); zipSync throws on it', async () => {
    const entries: ZipEntry[] = [{ path: '__proto__', data: Buffer.from('x'), mode: '0644' }];
    assert.deepEqual(pythonNames((await zipOf(entries)).bytes), ['__proto__']);
    const named: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
    named['__proto__'] = Buffer.from('x');
    assert.throws(() => zipSync(named));
  });

  it('stores what DEFLATE would make larger; zipSync at the same level writes the larger form', async () => {
    const noise = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 167 + 13) % 256));
    const zip = await zipOf([{ path: 'noise.bin', data: noise, mode: '0644' }]);
    assert.deepEqual(zip.entries.map((e) => [e.method, e.compressedSize]), [['store', 256]]);
    const theirs = zipSync({ 'noise.bin': [noise, { level: 9, mtime: new Date(1980, 0, 1) }] });
    assert.ok(theirs.length > zip.bytes.length, `zipSync ${theirs.length} bytes, writeZip ${zip.bytes.length}`);
  });
});
