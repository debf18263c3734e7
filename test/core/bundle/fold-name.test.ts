// Names a case-insensitive or normalising checkout (macOS, Windows) stores as one file: refused
// in every listing a digest is computed from (a folder, a git tree through the same walk, an archive).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { dirSource, pathCollisions } from '../../../src/core/bundle/index.js';
import { tempTrees } from '../../helpers/project.js';

const at = (ds: readonly { code: string; file?: string }[]): string[][] => ds.map((d) => [d.code, d.file ?? '']);

describe('pathCollisions', () => {
  it('reports the later spelling of each name folded together, once; a directory spelt two ways once', () => {
    assert.deepEqual(at(pathCollisions(['SKILL.md', 'Skill.md', 'run.js', 'caf\u00e9.txt', 'cafe\u0301.txt', 'A/x', 'a/y', 'a/z', 'b.md', 'b.md.'])), [
      ['BUNDLE_PATH_COLLISION', 'a'],
      ['BUNDLE_PATH_COLLISION', 'b.md.'],
      ['BUNDLE_PATH_COLLISION', 'caf\u00e9.txt'],
      ['BUNDLE_PATH_COLLISION', 'Skill.md'],
    ].sort((x, y) => ((x[1] as string) < (y[1] as string) ? -1 : 1)));
    assert.deepEqual(pathCollisions(['SKILL.md', 'run.js', 'lib/run.js']), []);
    assert.deepEqual(at(pathCollisions(['X', 'x'], 'skill/lib')), [['BUNDLE_PATH_COLLISION', 'skill/lib/x']]);
  });

  it('paths 200,000 folders deep: the same findings, by name rather than by every folder\'s whole path', () => {
    const deep = 'a/'.repeat(200_000);
    const found = pathCollisions([`b/${deep}y`, `${deep}x`, `${deep}X`, `${deep}z`, `B/${deep}y`]);
    assert.deepEqual(at(found), [
      ['BUNDLE_PATH_COLLISION', `${deep}x`],
      ['BUNDLE_PATH_COLLISION', 'b'],
    ]);
    assert.equal(found[0]?.message.startsWith(`${deep}x and ${deep}X are one file`), true);
  });

  it('names of 100,000 dots and spaces: folded in one pass', () => {
    const dots = '. '.repeat(50_000);
    assert.deepEqual(at(pathCollisions([`d/x${dots}y`, `d/X${dots}y`, `d/x${dots}`])), [['BUNDLE_PATH_COLLISION', `d/x${dots}y`]]);
  });
});

describe('a folder listing', () => {
  const trees = tempTrees();
  after(trees.cleanup);

  it('refuses SKILL.md beside Skill.md, and twins .skillignore leaves out', async () => {
    const files = Object.fromEntries(['SKILL.md', 'Skill.md', 'lib/Run.js', 'lib/run.js', 'notes.txt', 'NOTES.txt'].map((f) => [f, 'x\n']));
    const root = await trees.tree('skillctl-fold-', { files: { ...files, '.skillignore': 'notes.txt\nNOTES.txt\n' } });
    const listing = await dirSource(root).list();
    assert.deepEqual(at(listing.diagnostics).sort(), [
      ['BUNDLE_PATH_COLLISION', 'notes.txt'],
      ['BUNDLE_PATH_COLLISION', 'Skill.md'],
      ['BUNDLE_PATH_COLLISION', 'lib/run.js'],
    ].sort());
  });
});
