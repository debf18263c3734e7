// The streaming unpacker never holds an archive whole: a 300 MiB layer is unpacked by a child
// process whose peak resident set stays far below the layer's size. Not a timing: a bound on
// memory, with room for the runtime (about 50 MiB) and the pieces in flight.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const FILES = 3;
const MIB = 100;

describe('unpackTgz: memory', () => {
  const dir = tempDir('skillctl-unpack-large-');

  it(`unpacks a ${FILES * MIB} MiB archive with a peak RSS under 160 MiB`, async () => {
    const target = join(dir, 'out');
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'dist', 'test', 'helpers', 'unpack-large.js'), target, String(FILES), String(MIB)], { timeout: 300_000 });
    const r = JSON.parse(stdout) as { files: [string, number][]; codes: string[]; archiveSize: number; maxRssKiB: number };
    assert.deepEqual(r.codes, []);
    assert.deepEqual(r.files, Array.from({ length: FILES }, (_, i) => [`data/f${i}.bin`, MIB * 1024 * 1024]));
    assert.ok(r.archiveSize > FILES * MIB * 1024 * 1024, `the archive is ${r.archiveSize} bytes`);
    assert.equal((await stat(join(target, 'data', 'f2.bin'))).size, MIB * 1024 * 1024);
    assert.ok(r.maxRssKiB < 160 * 1024, `peak RSS ${r.maxRssKiB} KiB`);
  });
});
