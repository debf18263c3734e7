// writeFileAtomic: readers see the old content or the new, never a mix, and a link planted where
// the file goes is replaced, never written through. The last point is why skillctl keeps its own
// 30 lines rather than write-file-atomic (docs/architecture.md): that package writes to the
// link's target, so a lock or policy path swapped for a link to ~/.bashrc would rewrite it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chmod, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeFileAtomic } from '../../../src/core/fs/index.js';
import { removeDir, tempDir } from '../../helpers/project.js';

const require = createRequire(import.meta.url);

describe('writeFileAtomic', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('replaces the file whole, with the mode asked for, and leaves no temporary file', async () => {
    const path = join(dir, 'lock.json');
    await writeFile(path, 'old\n');
    await writeFileAtomic(path, 'new\n', 0o600);
    assert.equal(await readFile(path, 'utf8'), 'new\n');
    assert.equal((await lstat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(dir), ['lock.json']);
  });

  it('without a mode, keeps the permissions of the file it replaces, less group and other write; 0644 for a new file', async () => {
    const cases: readonly (readonly [string, number | undefined, number])[] = [
      ['private.yaml', 0o600, 0o600],
      ['script.sh', 0o755, 0o755],
      ['shared.json', 0o666, 0o644],
      ['new.json', undefined, 0o644],
    ];
    for (const [name, before, expected] of cases) {
      const path = join(dir, 'modes', name);
      await mkdir(join(dir, 'modes'), { recursive: true });
      if (before !== undefined) {
        await writeFile(path, 'old\n');
        await chmod(path, before);
      }
      await writeFileAtomic(path, 'new\n');
      assert.deepEqual([name, (await lstat(path)).mode & 0o777], [name, expected]);
    }
  });

  it('replaces a symlink planted at the path; the file it points at is untouched', async () => {
    const sub = join(dir, 'ours');
    await writeFile(join(dir, 'precious.txt'), 'precious\n');
    await mkdir(sub);
    await symlink(join(dir, 'precious.txt'), join(sub, 'lock.json'));
    await writeFileAtomic(join(sub, 'lock.json'), 'lock\n');
    assert.equal((await lstat(join(sub, 'lock.json'))).isSymbolicLink(), false);
    assert.equal(await readFile(join(dir, 'precious.txt'), 'utf8'), 'precious\n');
  });

  it('write-file-atomic, given the same link, writes through it to the file it points at', async () => {
    const wfa = require('write-file-atomic') as { sync(path: string, data: string): void };
    await writeFile(join(dir, 'theirs-target.txt'), 'precious\n');
    await symlink(join(dir, 'theirs-target.txt'), join(dir, 'theirs.json'));
    wfa.sync(join(dir, 'theirs.json'), 'lock\n');
    assert.equal((await lstat(join(dir, 'theirs.json'))).isSymbolicLink(), true);
    assert.equal(await readFile(join(dir, 'theirs-target.txt'), 'utf8'), 'lock\n');
  });
});
