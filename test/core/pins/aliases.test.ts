// Names a case-insensitive or normalising file system takes for an anchor: found along the
// anchors only, reported (not entered), each once, sorted; exact spellings and mere neighbours
// are not aliases.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { asyncDirOps } from '../../../src/core/bundle/index.js';
import { findAliases, foldName } from '../../../src/core/pins/aliases.js';
import { tempTrees } from '../../helpers/project.js';

describe('foldName', () => {
  it('folds case, Unicode normalisation, HFS+ ignorables and trailing dots and spaces', () => {
    for (const [a, b] of [
      ['.Claude', '.claude'],
      ['caf\u00e9', 'cafe\u0301'],
      ['he\u200cllo', 'hello'],
      ['\ufeffskills', 'skills'],
      ['hello. .', 'hello'],
      ['\u212aey', 'key'],
      ['\u017fkills', 'skills'],
    ]) assert.equal(foldName(a as string), foldName(b as string), `${a} and ${b}`);
    assert.notEqual(foldName('hello'), foldName('hell0'));
    assert.equal(foldName('.'), '.');
    assert.equal(foldName('..'), '..');
  });
});

describe('findAliases', () => {
  const trees = tempTrees();
  after(trees.cleanup);

  it('reports every entry along the anchors spelt otherwise, and nothing else', async () => {
    const root = await trees.tree('skillctl-aliases-', { dirs: ['.claude/skills/a', '.Claude/skills', 'manifests/hello', 'manifests/HELLO/sub', 'manifests/other', 'Other/x', 'pins'] });
    const found = await findAliases(root, ['.claude/skills', 'manifests/hello', 'pins/skills.lock.json', 'absent/deeper'], asyncDirOps);
    assert.deepEqual(found.map((d) => [d.code, d.file]), [
      ['PIN_PATH_ALIAS', '.Claude'],
      ['PIN_PATH_ALIAS', 'manifests/HELLO'],
    ]);
  });
});
