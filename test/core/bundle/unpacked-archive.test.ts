// The streaming unpacker lists, hashes and writes what the in-memory reader of the same archive
// lists: the same files, digests and modes, `.skillignore` and the excluded folders applied (and
// their files removed from disk), and it refuses a target that is not empty.
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streamedArchiveBounds } from '../../../src/core/archive/index.js';
import { archiveSourceFromBytes, unpackTgzFile } from '../../../src/core/bundle/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { tgz, type RawEntry } from '../../helpers/tar.js';
import { tempDir } from '../../helpers/tmp.js';

const entries: RawEntry[] = [
  { name: 'skill.yaml', data: 'skill_id: x\n' },
  { name: '.skillignore', data: 'notes/\n*.log\n' },
  { name: 'bin/run.sh', data: '#!/bin/sh\necho hi\n', mode: 0o755 },
  { name: 'notes/todo.txt', data: 'ignored' },
  { name: 'debug.log', data: 'ignored' },
  { name: 'node_modules/dep/index.js', data: 'excluded' },
  { name: 'data/big.bin', data: Buffer.alloc(3 * 1024 * 1024, 0x62) },
];

describe('unpackTgzFile', () => {
  const dir = tempDir('skillctl-unpacked-');

  it('lists, hashes and writes what the in-memory reader lists; ignored files are not left on disk', async () => {
    const bytes = tgz(entries);
    const file = join(dir, 'a.tgz');
    await writeFile(file, bytes);
    const memory = await archiveSourceFromBytes(bytes, 'a.tgz');
    const unpacked = await unpackTgzFile(file, join(dir, 'a'), streamedArchiveBounds(bytes.length), 'a.tgz');
    assert.deepEqual(await unpacked.list(), await memory.list());
    assert.deepEqual(
      (await unpacked.list()).files.map((f) => f.path),
      ['.skillignore', 'bin/run.sh', 'data/big.bin', 'skill.yaml'],
    );
    for (const f of (await memory.list()).files) {
      assert.equal(await unpacked.digest(f.path), await memory.digest(f.path), f.path);
      assert.equal(sha256(await unpacked.read(f.path)), await memory.digest(f.path), f.path);
    }
    assert.equal(unpacked.archiveDigest, sha256(bytes));
    assert.equal(unpacked.archiveSize, bytes.length);
    assert.deepEqual((await readdir(join(dir, 'a'), { recursive: true })).sort(), ['.skillignore', 'bin', 'bin/run.sh', 'data', 'data/big.bin', 'skill.yaml']);
    assert.equal((await stat(join(dir, 'a', 'bin', 'run.sh'))).mode & 0o111, 0o111);
    assert.equal(await readFile(join(dir, 'a', 'skill.yaml'), 'utf8'), 'skill_id: x\n');
    await assert.rejects(unpacked.read('notes/todo.txt'), { code: 'INPUT_NOT_FOUND' });
  });

  it('refuses a target that is not empty (ARCHIVE_TARGET_INVALID) and a missing archive (INPUT_NOT_FOUND)', async () => {
    const file = join(dir, 'b.tgz');
    await writeFile(file, tgz(entries.slice(0, 1)));
    await mkdir(join(dir, 'full'));
    await writeFile(join(dir, 'full', 'x'), 'x');
    await assert.rejects(unpackTgzFile(file, join(dir, 'full'), streamedArchiveBounds(100)), { code: 'ARCHIVE_TARGET_INVALID' });
    await assert.rejects(unpackTgzFile(join(dir, 'absent.tgz'), join(dir, 'c'), streamedArchiveBounds(100)), { code: 'INPUT_NOT_FOUND' });
  });
});
