// skillctl's own directory in the temporary directory, where bundles are copied for their runs:
// made 0700 when absent, closed again when this user's and open, never used when it is a file, a
// link or another user's.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ensureScratchRoot, scratchRoot } from '../../../src/core/run/scratch-root.js';
import { tempDir } from '../../helpers/tmp.js';

const uid = process.getuid?.();

describe('scratch root', () => {
  const tmp = realpathSync(tempDir('skillctl-scratch-root-'));

  it('is skillctl-<uid> in the temporary directory', () => {
    assert.equal(scratchRoot('/var/tmp'), uid !== undefined ? `/var/tmp/skillctl-${uid}` : '/var/tmp/skillctl');
  });

  it('is made with mode 0700 when absent, and an open one of this user is closed again', async () => {
    const root = join(tmp, 'made');
    assert.equal(await ensureScratchRoot(root), undefined);
    assert.equal((await lstat(root)).mode & 0o777, 0o700);
    await chmod(root, 0o755);
    assert.equal(await ensureScratchRoot(root), undefined);
    assert.equal((await lstat(root)).mode & 0o777, 0o700);
  });

  it('refuses a file or a link at its path, with the code and the reason', async () => {
    const file = join(tmp, 'file');
    await writeFile(file, '');
    const link = join(tmp, 'link');
    await mkdir(join(tmp, 'elsewhere'));
    await symlink(join(tmp, 'elsewhere'), link);
    for (const path of [file, link]) {
      const d = await ensureScratchRoot(path);
      assert.equal(d?.code, 'RUN_SCRATCH_UNSAFE');
      assert.equal(d?.message, `${path}, where bundles are copied for their runs, is not a directory: nothing is copied there`);
    }
  });

  it("refuses another user's directory (made first on a shared /tmp)", { skip: uid !== 0 && 'needs root to make a directory of another user' }, async () => {
    const root = join(tmp, 'theirs');
    await mkdir(root, { mode: 0o700 });
    await chown(root, 4242, 4242);
    const d = await ensureScratchRoot(root);
    assert.equal(d?.code, 'RUN_SCRATCH_UNSAFE');
    assert.equal(d?.message, `${root}, where bundles are copied for their runs, belongs to another user (uid 4242): nothing is copied there`);
  });
});
