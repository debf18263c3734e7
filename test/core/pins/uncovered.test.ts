// Files inside a pinned folder that its digests leave out: each excluded directory once (not
// entered), each .skillignore match, nothing the digests cover.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { asyncDirOps } from '../../../src/core/bundle/index.js';
import { findUncovered } from '../../../src/core/pins/uncovered.js';
import { tempTrees } from '../../helpers/project.js';

describe('findUncovered', () => {
  const trees = tempTrees();
  after(trees.cleanup);

  it('reports node_modules/, .skillctl/ and .skillignore matches, each once', async () => {
    const files = Object.fromEntries(['s/SKILL.md', 's/run.js', 's/node_modules/a/index.js', 's/lib/.skillctl/x', 's/notes/n.txt', 's/lib/debug.log', 'other/node_modules/x.js'].map((f) => [f, 'x\n']));
    const root = await trees.tree('skillctl-uncovered-', { files: { ...files, 's/.skillignore': 'notes/\n*.log\n' } });
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
