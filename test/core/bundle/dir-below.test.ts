// Reads made after a bundle's walk (pin's hashes, validate's reads, a file mcp --skills serves)
// reach a listed file through the handles of its directories: a directory swapped for a link
// since the listing is refused (LinkOnTheWay, BUNDLE_SYMLINK), never followed outside the bundle.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asyncDirOps, atBelow, DirCursor, dirSource, hashFiles, LinkOnTheWay, openRoot, RootChanged, syncDirOps, type DirOps } from '../../../src/core/bundle/index.js';
import { OUTSIDE_TEXT, walkLayout } from '../../helpers/walk-layout.js';
import { recordingOps } from '../../helpers/recording-ops.js';

/** The shared layout, with `a/y.txt` too (inside and outside). */
function layout(): { bundle: string; outside: string } {
  const l = walkLayout();
  writeFileSync(join(l.bundle, 'a', 'y.txt'), 'inside\n');
  writeFileSync(join(l.outside, 'a', 'y.txt'), OUTSIDE_TEXT);
  return l;
}

describe('reads below a bundle after its walk', () => {
  for (const [flavour, ops] of [
    ['thread pool', asyncDirOps],
    ['blocking', syncDirOps],
  ] as const) {
    it(`${flavour}: a directory swapped for a link after the listing: read and digest refuse it (LinkOnTheWay), and hashFiles finds BUNDLE_SYMLINK once`, async () => {
      const { bundle, outside } = layout();
      const source = dirSource(bundle, undefined, ops);
      const listing = await source.list();
      assert.deepEqual(listing.files.map((f) => f.path), ['SKILL.md', 'a/b/in.txt', 'a/b/x.txt', 'a/y.txt']);
      renameSync(join(bundle, 'a'), join(bundle, '..', 'a.moved'));
      symlinkSync(join(outside, 'a'), join(bundle, 'a'));
      await assert.rejects(source.read('a/y.txt'), (err) => err instanceof LinkOnTheWay && err.dir === 'a');
      await assert.rejects(source.digest('a/b/x.txt'), (err) => err instanceof LinkOnTheWay && err.dir === 'a');
      const hashed = await hashFiles(source, listing.files);
      assert.deepEqual(hashed.files.map((f) => f.path), ['SKILL.md']);
      assert.deepEqual(hashed.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_SYMLINK', 'a']]);
    });

    it(`${flavour}: files read in path order share their directories' handles; a file of the root opens none`, async () => {
      const { bundle } = layout();
      const { ops: counted, dirs: opened } = recordingOps(ops);
      const cursor = new DirCursor(counted, bundle);
      try {
        assert.equal(await cursor.file('SKILL.md'), join(bundle, 'SKILL.md'));
        await cursor.file('a/b/x.txt');
        await cursor.file('a/y.txt');
        await cursor.file('a/b/x.txt');
      } finally {
        await cursor.close();
      }
      // a/, a/b/, then a/b/ again once a/y.txt had closed it.
      assert.equal(opened.length, 3);
      assert.equal(await atBelow(counted, bundle, 'SKILL.md', (at) => counted.readRegular(at).then(String)), 'inside\n');
      assert.equal(opened.length, 3);
      assert.equal(await atBelow(counted, bundle, 'a/b/x.txt', (at) => counted.readRegular(at).then(String)), 'inside\n');
    });
  }

  it('a link deeper down is named as it lies below the root', async () => {
    const { bundle, outside } = layout();
    renameSync(join(bundle, 'a', 'b'), join(bundle, '..', 'b.moved'));
    symlinkSync(join(outside, 'a', 'b'), join(bundle, 'a', 'b'));
    await assert.rejects(atBelow(syncDirOps, bundle, 'a/b/x.txt', (at) => syncDirOps.readRegular(at)), (err) => err instanceof LinkOnTheWay && err.dir === 'a/b');
    assert.equal(String(await atBelow(syncDirOps, bundle, 'a/y.txt', (at) => syncDirOps.readRegular(at))), 'inside\n');
  });

  it('given the walked root\'s identity, the root is opened once and checked: another directory (or a link to one) there now is RootChanged, nothing below it read', async () => {
    const { bundle, outside } = layout();
    const st = lstatSync(bundle);
    const expect = { dev: st.dev, ino: st.ino };
    const { ops: counted, dirs: opened } = recordingOps(syncDirOps);
    assert.equal(String(await atBelow(counted, bundle, 'SKILL.md', (at) => counted.readRegular(at), expect)), 'inside\n');
    assert.equal(opened.length, 1);
    renameSync(bundle, `${bundle}.moved`);
    symlinkSync(outside, bundle);
    for (const rel of ['SKILL.md', 'a/y.txt']) await assert.rejects(atBelow(syncDirOps, bundle, rel, (at) => syncDirOps.readRegular(at), expect), (err) => err instanceof RootChanged);
    renameSync(bundle, `${bundle}.link`);
    mkdirSync(bundle);
    writeFileSync(join(bundle, 'SKILL.md'), 'another\n');
    await assert.rejects(atBelow(syncDirOps, bundle, 'SKILL.md', (at) => syncDirOps.readRegular(at), expect), (err) => err instanceof RootChanged);
  });

  it('openRoot: the root held, opened without following a link; a link (even to the root itself) or another directory there is RootChanged', async () => {
    const { bundle, outside } = layout();
    const st = lstatSync(bundle);
    const expect = { dev: st.dev, ino: st.ino };
    const openDir = syncDirOps.openDir as NonNullable<DirOps['openDir']>;
    await (await openRoot(openDir, bundle, expect, false)).close();
    renameSync(bundle, `${bundle}.moved`);
    symlinkSync(`${bundle}.moved`, bundle);
    await assert.rejects(openRoot(openDir, bundle, expect, false), (err) => err instanceof RootChanged);
    await (await openRoot(openDir, bundle, expect, true)).close();
    renameSync(bundle, `${bundle}.link`);
    symlinkSync(outside, bundle);
    await assert.rejects(openRoot(openDir, bundle, expect, true), (err) => err instanceof RootChanged);
  });

  it('without openDir (a git tree, which holds no links) files are reached by path', async () => {
    const { bundle } = layout();
    const cursor = new DirCursor({ ...syncDirOps, openDir: undefined }, bundle);
    assert.equal(await cursor.file('a/b/x.txt'), join(bundle, 'a', 'b', 'x.txt'));
    await cursor.close();
  });
});
