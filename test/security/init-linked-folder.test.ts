// Threat: a repository links a folder `init --force` writes the scaffold into, so that the
// scaffold's script replaces a file of the same name outside the project.
// `skillctl init DIR --force` writes its files into a folder that is not empty, replacing those of
// the same name: the folder may be a cloned repository's, which may hold `scripts` as a link (git
// checks links out as links) to a folder outside it. init wrote `scripts/main.py` through the link
// (replacing the file there, mode 0755), and only the validation after it found the link (INTERNAL,
// exit 1). A folder of a file below DIR that is a link is refused before anything is written:
// OUTPUT_UNWRITABLE, exit 2, nothing written anywhere.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';

describe('init --force into a folder whose scripts folder the repository links outside', () => {
  const sc = scratch('skillctl-init-linked-');

  it('scripts -> a folder outside holding main.py: OUTPUT_UNWRITABLE, exit 2, nothing written anywhere', async () => {
    const busy = join(sc.work, 'busy');
    await rm(busy, { recursive: true, force: true });
    await mkdir(busy);
    await writeFile(join(busy, 'notes.txt'), 'mine\n');
    await writeFile(join(sc.outside, 'main.py'), 'print("the user\'s own")\n');
    await symlink('../../outside', join(busy, 'scripts'));
    const before = await treeState(sc.outside);
    const r = await attempt(['init', 'busy', '--yes', '--runtime-version', '3.12.4', '--description', 'Busy.', '--force'], { cwd: sc.work });
    assert.deepEqual([r.exit, r.errors], [2, ['OUTPUT_UNWRITABLE']], r.stdout + r.stderr);
    assert.deepEqual(await treeState(sc.outside), before, 'nothing outside the project changed');
    assert.equal(existsSync(join(busy, 'skill.yaml')), false);
  });
});
