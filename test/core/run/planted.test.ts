// What the run looks for after a process ends: for each protected path that did not exist, the
// first path that would have to be created on the way to it, so a `.git` planted as a file in a
// project that is not yet a repository is seen although no `.git/config` ever appears.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { absentPaths } from '../../../src/core/run/planted.js';
import { tempDir } from '../../helpers/tmp.js';

describe('absentPaths', () => {
  it('names the first missing path on the way to each absent protected path, once, and nothing that exists', async () => {
    const root = realpathSync(tempDir('skillctl-planted-'));
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await writeFile(join(root, 'repo', '.git', 'config'), '');
    await mkdir(join(root, 'linked'));
    await mkdir(join(root, 'plain'));
    await writeFile(join(root, 'linked', '.git'), 'gitdir: ../elsewhere\n');
    const paths = ['config', 'hooks', 'commondir'].flatMap((n) => ['repo', 'plain', 'linked'].map((d) => join(root, d, '.git', n)));
    assert.deepEqual((await absentPaths([...paths, join(root, 'pins')])).sort(), [
      join(root, 'linked', '.git', 'commondir'),
      join(root, 'linked', '.git', 'config'),
      join(root, 'linked', '.git', 'hooks'),
      join(root, 'pins'),
      join(root, 'plain', '.git'),
      join(root, 'repo', '.git', 'commondir'),
      join(root, 'repo', '.git', 'hooks'),
    ]);
  });
});
