// The folders a listing of file paths names, each made once however many files lie below it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addFolders, foldersOf } from '../../../src/core/digest/index.js';

describe('foldersOf and addFolders', () => {
  it('every proper folder of every path, and nothing else', () => {
    assert.deepEqual([...foldersOf(['f', 'a/b/c', 'a/b/d', 'a/e/f', 'x/y'])].sort(), ['a', 'a/b', 'a/e', 'x']);
    assert.deepEqual([...foldersOf([])], []);
    const dirs = foldersOf(['a/b/c']);
    addFolders(dirs, 'a/z/c');
    addFolders(dirs, 'a/b/q/r');
    assert.deepEqual([...dirs].sort(), ['a', 'a/b', 'a/b/q', 'a/z']);
  });

  it('20,000 files under one folder 2,047 folders deep (paths of 4096 bytes)', () => {
    const deep = 'a/'.repeat(2047);
    const dirs = foldersOf(Array.from({ length: 20_000 }, (_, i) => `${deep}${i}`));
    assert.equal(dirs.size, 2047);
    assert.ok(dirs.has(deep.slice(0, -1)));
  });
});
