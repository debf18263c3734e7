// The renames of a pull, all or nothing, and a failed undo that names what it left.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { moveIntoPlace } from '../../../src/core/mcp-skills/move-into-place.js';
import { tempDir } from '../../helpers/tmp.js';

function folder(path: string, text: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'SKILL.md'), text);
  return path;
}

describe('moveIntoPlace', () => {
  it('moves each scratch folder in, the replaced copy aside, and drops the copy on commit', async () => {
    const dir = tempDir();
    folder(join(dir, 'a'), 'old');
    const moved = await moveIntoPlace([
      { scratch: folder(join(dir, '.a.pull'), 'new'), dir: join(dir, 'a'), aside: join(dir, '.a.old') },
      { scratch: folder(join(dir, '.b.pull'), 'b'), dir: join(dir, 'b') },
    ]);
    assert.deepEqual(readdirSync(dir).sort(), ['.a.old', 'a', 'b']);
    await moved.commit();
    assert.deepEqual(readdirSync(dir).sort(), ['a', 'b']);
    assert.equal(readFileSync(join(dir, 'a', 'SKILL.md'), 'utf8'), 'new');
  });

  it('a failed rename puts back the copy moved aside for the same skill, and undoes the skills before it', async () => {
    const dir = tempDir();
    folder(join(dir, 'b'), 'old b');
    const moves = [
      { scratch: folder(join(dir, '.a.pull'), 'a'), dir: join(dir, 'a') },
      // Its scratch folder is missing: the rename in fails after b was moved aside.
      { scratch: join(dir, '.b.pull'), dir: join(dir, 'b'), aside: join(dir, '.b.old') },
    ];
    await assert.rejects(moveIntoPlace(moves), { code: 'ENOENT' });
    assert.deepEqual(readdirSync(dir).sort(), ['.a.pull', 'b']);
    assert.equal(readFileSync(join(dir, 'b', 'SKILL.md'), 'utf8'), 'old b');
  });

  it('an undo that cannot move a folder back is OUTPUT_UNWRITABLE naming it, and overwrites nothing', async () => {
    const dir = tempDir();
    const moved = await moveIntoPlace([{ scratch: folder(join(dir, '.a.pull'), 'a'), dir: join(dir, 'a') }]);
    // Something else took the scratch name meanwhile.
    folder(join(dir, '.a.pull'), 'other');
    const cause = Object.assign(new Error('EIO'), { code: 'EIO' });
    await assert.rejects(moved.undo(cause), (err: Error & { code?: string }) => err.code === 'OUTPUT_UNWRITABLE' && err.message.includes(join(dir, 'a')));
    assert.equal(readFileSync(join(dir, '.a.pull', 'SKILL.md'), 'utf8'), 'other');
    assert.equal(readFileSync(join(dir, 'a', 'SKILL.md'), 'utf8'), 'a');
  });
});
