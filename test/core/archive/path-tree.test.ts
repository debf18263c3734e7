// The files of an archive and the folders their paths name, kept by name: what collides, and the
// folder bound, for paths of any depth.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PathTree } from '../../../src/core/archive/index.js';

describe('PathTree', () => {
  it('places files, and tells a path placed twice, a folder of a file, and a file above a path', () => {
    const t = new PathTree(100);
    assert.deepEqual(t.place('a/b/c'), { kind: 'placed' });
    assert.deepEqual(t.place('a/b/d'), { kind: 'placed' });
    assert.deepEqual(t.place('a/b/c'), { kind: 'duplicate' });
    assert.deepEqual(t.place('a/b'), { kind: 'folder', first: 'a/b/c' });
    assert.deepEqual(t.place('a'), { kind: 'folder', first: 'a/b/c' });
    assert.deepEqual(t.place('a/b/c/e/f'), { kind: 'below-file', folder: 'a/b/c' });
    // A name that only begins like another is no folder of it.
    assert.deepEqual(t.place('a/b-c/x'), { kind: 'placed' });
    assert.equal(t.folders, 3);
    assert.equal(t.hasFile('a/b/c'), true);
    assert.equal(t.hasFile('a/b'), false);
    assert.equal(t.hasFile('a/b/c/e'), false);
  });

  it('counts each folder once, and refuses a path whose new folders pass the bound, leaving nothing of it', () => {
    const t = new PathTree(4);
    assert.deepEqual(t.place('x/y/f'), { kind: 'placed' });
    assert.deepEqual(t.place('x/y/g'), { kind: 'placed' });
    assert.equal(t.folders, 2);
    assert.deepEqual(t.place('x/p/q/r/f'), { kind: 'too-many-folders' });
    assert.equal(t.folders, 2);
    assert.deepEqual(t.place('x/p/q/f'), { kind: 'placed' });
    assert.equal(t.folders, 4);
    assert.deepEqual(t.place('x/p/q/r/f'), { kind: 'too-many-folders' });
  });

  it('a path 200,000 folders deep, placed beside itself and under itself', () => {
    const deep = `${'a/'.repeat(200_000)}f`;
    const t = new PathTree(1_000_000);
    assert.deepEqual(t.place(deep), { kind: 'placed' });
    assert.deepEqual(t.place(`${deep}2`), { kind: 'placed' });
    assert.equal(t.folders, 200_000);
    assert.deepEqual(t.place(deep), { kind: 'duplicate' });
    assert.deepEqual(t.place(`${deep}/g`), { kind: 'below-file', folder: deep });
    assert.deepEqual(t.place(`${'a/'.repeat(1000)}a`), { kind: 'folder', first: deep });
  });
});
