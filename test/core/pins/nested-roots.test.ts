// Agent roots below a project's top: found at any depth, never in node_modules and the like,
// a link on the way returned as a root (the scan reports it), and the bound said.
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { asyncDirOps } from '../../../src/core/bundle/index.js';
import { DEFAULT_SKILL_ROOTS, findPinnable } from '../../../src/core/pins/index.js';
import { findNestedRoots } from '../../../src/core/pins/nested-roots.js';
import { tempTrees } from '../../helpers/project.js';

describe('findNestedRoots', () => {
  const trees = tempTrees();
  after(trees.cleanup);

  it('finds .claude/skills and .agents/skills below the top, not the top ones, not inside node_modules', async () => {
    const dirs = ['.claude/skills/a', 'packages/web/.claude/skills/b', 'packages/api/.agents/skills', 'node_modules/p/.claude/skills/c', 'x/target/.claude/skills', 'docs/skills', 'packages/cli'];
    const root = await trees.tree('skillctl-nested-', { dirs });
    await symlink('/tmp', join(root, 'packages/cli/.claude'));
    assert.deepEqual(await findNestedRoots(root, asyncDirOps), {
      roots: ['packages/api/.agents/skills', 'packages/cli/.claude/skills', 'packages/web/.claude/skills'],
      projects: [],
      truncated: false,
    });
    const cut = await findNestedRoots(root, asyncDirOps, 3);
    assert.equal(cut.truncated, true);
    // The search that uses it says so, as a warning: the commit's walk is whole.
    const found = await findPinnable(root, asyncDirOps, new Set(), DEFAULT_SKILL_ROOTS, 3);
    assert.deepEqual(found.diagnostics.map((d) => [d.code, d.severity]), [['PIN_SEARCH_TRUNCATED', 'warning']]);
    // Walked whole, the link on the way to packages/cli/.claude/skills is reported.
    const whole = await findPinnable(root, asyncDirOps);
    assert.deepEqual(whole.diagnostics.map((d) => [d.code, d.file]), [['PIN_UNSEARCHABLE', 'packages/cli/.claude']]);
  });
});
