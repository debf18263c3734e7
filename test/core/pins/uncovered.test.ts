// Files inside a pinned folder that its digests leave out: each excluded directory once (not
// entered), each .skillignore match, nothing the digests cover.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { asyncDirOps } from '../../../src/core/bundle/index.js';
import { findUncovered } from '../../../src/core/pins/uncovered.js';
import { removeDir, tempDir } from '../../helpers/project.js';

describe('findUncovered', () => {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map(removeDir)));

  it('reports node_modules/, .skillctl/ and .skillignore matches, each once', async () => {
    const root = await tempDir('skillctl-uncovered-');
    dirs.push(root);
    const files = ['s/SKILL.md', 's/.skillignore', 's/run.js', 's/node_modules/a/index.js', 's/lib/.skillctl/x', 's/notes/n.txt', 's/lib/debug.log', 'other/node_modules/x.js'];
    for (const f of files) {
      await mkdir(dirname(join(root, f)), { recursive: true });
      await writeFile(join(root, f), f.endsWith('.skillignore') ? 'notes/\n*.log\n' : 'x\n');
    }
    const found = await findUncovered(root, ['s'], asyncDirOps);
    assert.deepEqual(found.map((d) => [d.code, d.file]), [
      ['PIN_UNCOVERED', 's/lib/.skillctl'],
      ['PIN_UNCOVERED', 's/lib/debug.log'],
      ['PIN_UNCOVERED', 's/node_modules'],
      ['PIN_UNCOVERED', 's/notes'],
    ]);
    assert.match(found[2]?.message ?? '', /a folder the digests never enter/);
    assert.match(found[3]?.message ?? '', /matched by \.skillignore/);
  });
});
