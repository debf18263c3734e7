// A bundle directory's walk (verify-pins' listing and hashing) against a directory swapped for a
// symlink to outside the bundle between two steps of the walk. The swap is made by a hook on the
// listing calls, at a fixed point of the walk: after the listing that names the directory, or
// after the directory itself was listed and before its subdirectory is opened.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asyncDirOps, dirSource, listAndHash, syncDirOps, type DirOps } from '../../../src/core/bundle/index.js';
import { deepChain, removeDeepChain } from '../../helpers/deep-tree.js';
import { tempDir } from '../../helpers/tmp.js';
import { walkLayout as layout } from '../../helpers/walk-layout.js';

/** `ops` whose `after`-th listing (1: the root) is followed by swapping `dir` for a link to `to`. */
function swapAfter(ops: DirOps, after: number, dir: string, to: string): DirOps {
  let listings = 0;
  return {
    ...ops,
    readdir: async (path) => {
      const entries = await ops.readdir(path);
      if (++listings === after) {
        renameSync(dir, `${dir}.moved`);
        symlinkSync(to, dir);
      }
      return entries;
    },
  };
}

describe('a bundle directory swapped for a symlink during the walk', () => {
  for (const [flavour, ops] of [
    ['thread pool', asyncDirOps],
    ['blocking', syncDirOps],
  ] as const) {
    it(`${flavour}: a directory swapped after its parent was listed is BUNDLE_SYMLINK, and nothing outside is listed or read`, async () => {
      const { bundle, outside } = layout();
      const { listing, hashed } = await listAndHash(dirSource(bundle, undefined, swapAfter(ops, 1, join(bundle, 'a'), join(outside, 'a'))));
      assert.deepEqual(listing.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_SYMLINK', 'a']]);
      assert.deepEqual(listing.files.map((f) => f.path), ['SKILL.md']);
      assert.deepEqual(hashed.files.map((f) => f.path), ['SKILL.md']);
    });

    it(`${flavour}: a directory swapped after it was listed leads its subdirectories nowhere: they are read where they were listed`, async () => {
      const { bundle, outside } = layout();
      // Listings: the root, then a/. Then a/ becomes a link to outside/a, before a/b is opened.
      const { listing, hashed } = await listAndHash(dirSource(bundle, undefined, swapAfter(ops, 2, join(bundle, 'a'), join(outside, 'a'))));
      assert.deepEqual(listing.diagnostics, []);
      assert.deepEqual(listing.files.map((f) => f.path), ['SKILL.md', 'a/b/in.txt', 'a/b/x.txt']);
      assert.equal(hashed.files.length, 3);
      assert.deepEqual(readdirSync(join(bundle, 'a.moved', 'b')).sort(), ['in.txt', 'x.txt'], 'the directory the walk read, moved away');
    });
  }

  it('a walk stopped at a bound closes every directory it opened, the parent of one never entered too', async () => {
    // Whichever of a/ and z/ is walked first goes over the bound, with the other still to open.
    const bundle = tempDir('skillctl-walk-');
    for (const d of ['a', 'z']) {
      mkdirSync(join(bundle, d));
      for (const f of ['1.txt', '2.txt']) writeFileSync(join(bundle, d, f), f);
    }
    const opened: string[] = [];
    let closed = 0;
    const counting: DirOps = {
      ...syncDirOps,
      openDir: async (path, follow) => {
        const h = await (syncDirOps.openDir as NonNullable<DirOps['openDir']>)(path, follow);
        opened.push(path);
        return { path: h.path, close: () => (closed++, h.close()) };
      },
    };
    const listing = await dirSource(bundle, { maxFiles: 1, maxTotalBytes: 1e9 }, counting).list();
    assert.deepEqual(listing.diagnostics.map((d) => d.code), ['BUNDLE_TOO_LARGE']);
    assert.equal(opened.length, 2, 'the root and the subdirectory walked first');
    assert.equal(closed, opened.length);
  });
});

describe('a bundle directory holding a path longer than 4096 bytes', () => {
  for (const [flavour, ops] of [
    ['thread pool', asyncDirOps],
    ['blocking', syncDirOps],
  ] as const) {
    it(`${flavour}: BUNDLE_PATH_INVALID at the first folder past the bound, never entered; the rest listed`, async () => {
      const bundle = tempDir('skillctl-walk-deep-');
      writeFileSync(join(bundle, 'SKILL.md'), 'x');
      await deepChain(bundle, 3000);
      try {
        const listing = await dirSource(bundle, undefined, ops).list();
        assert.deepEqual(listing.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_PATH_INVALID', `${'a/'.repeat(2048)}a`]]);
        assert.deepEqual(listing.files.map((f) => f.path), ['SKILL.md']);
      } finally {
        await removeDeepChain(bundle, 3000);
      }
    });
  }
});
