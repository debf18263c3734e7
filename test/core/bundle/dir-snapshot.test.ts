// A directory source walked with hashes is a snapshot: digests and reads after the walk give the
// bytes the walk read (each file read once), and the bundle's own folder replaced after the walk
// (by a link to outside, or another directory) is refused (RootChanged, BUNDLE_ROOT_CHANGED),
// never read.
import assert from 'node:assert/strict';
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asyncDirOps, dirSource, hashFiles, listAndHash, RootChanged, syncDirOps } from '../../../src/core/bundle/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { walkLayout } from '../../helpers/walk-layout.js';
import { recordingOps } from '../../helpers/recording-ops.js';

/** The bundle's folder moved aside and a link to `outside` put in its place. */
function replaceRoot(bundle: string, outside: string): void {
  renameSync(bundle, `${bundle}.moved`);
  symlinkSync(outside, bundle);
}

describe('a directory source after its walk', () => {
  for (const [flavour, ops] of [
    ['thread pool', asyncDirOps],
    ['blocking', syncDirOps],
  ] as const) {
    it(`${flavour}: walked with hashes, each file is opened once; digests and reads after it give the bytes the walk read, whatever the files hold now`, async () => {
      const { bundle } = walkLayout();
      const { ops: counted, files: opened } = recordingOps(ops);
      const source = dirSource(bundle, undefined, counted);
      const { listing, hashed } = await listAndHash(source);
      assert.deepEqual(listing.files.map((f) => f.path), ['SKILL.md', 'a/b/in.txt', 'a/b/x.txt']);
      writeFileSync(join(bundle, 'SKILL.md'), 'tampered\n');
      writeFileSync(join(bundle, 'a', 'b', 'x.txt'), 'tampered\n');
      assert.equal((await source.read('SKILL.md')).toString(), 'inside\n');
      assert.equal(await source.digest('a/b/x.txt'), sha256(Buffer.from('inside\n')));
      assert.deepEqual((await hashFiles(source, listing.files)).files, hashed.files);
      // A listing of a snapshot is its walk's, not a second walk.
      assert.deepEqual(await source.list(), listing);
      assert.deepEqual(opened.sort(), ['SKILL.md', 'in.txt', 'x.txt']);
    });

    it(`${flavour}: a file hashed but too large to keep, changed since: a read refuses it (ESTALE) rather than give bytes that were not hashed`, async () => {
      const { bundle } = walkLayout();
      const big = Buffer.alloc(200 * 1024, 'a');
      writeFileSync(join(bundle, 'a', 'big.bin'), big);
      const source = dirSource(bundle, undefined, ops);
      await listAndHash(source);
      assert.deepEqual(await source.read('a/big.bin'), big);
      writeFileSync(join(bundle, 'a', 'big.bin'), Buffer.alloc(200 * 1024, 'b'));
      await assert.rejects(source.read('a/big.bin'), { code: 'ESTALE' });
    });

    it(`${flavour}: the bundle's folder replaced by a link to outside after a listing: reads and digests refuse it (RootChanged), hashFiles finds BUNDLE_ROOT_CHANGED once`, async () => {
      const { bundle, outside } = walkLayout();
      const source = dirSource(bundle, undefined, ops);
      const listing = await source.list();
      replaceRoot(bundle, outside);
      await assert.rejects(source.read('SKILL.md'), (err) => err instanceof RootChanged);
      await assert.rejects(source.digest('a/b/x.txt'), (err) => err instanceof RootChanged);
      const hashed = await hashFiles(source, listing.files);
      assert.deepEqual(hashed.files, []);
      assert.deepEqual(hashed.diagnostics.map((d) => d.code), ['BUNDLE_ROOT_CHANGED']);
      // A second walk of the same source is of the directory the first one walked.
      assert.deepEqual((await source.list()).diagnostics.map((d) => d.code), ['BUNDLE_ROOT_CHANGED']);
    });

    it(`${flavour}: a root not followed (followRoot false, a path already resolved) that is a link now: BUNDLE_ROOT_CHANGED, nothing listed`, async () => {
      const { bundle, outside } = walkLayout();
      replaceRoot(bundle, outside);
      const listed = await listAndHash(dirSource(bundle, undefined, ops, { followRoot: false }));
      assert.deepEqual(listed.listing.files, []);
      assert.deepEqual(listed.listing.diagnostics.map((d) => d.code), ['BUNDLE_ROOT_CHANGED']);
      // Followed (the default: a path as the user gave it), the link is the folder named.
      assert.deepEqual((await dirSource(bundle, undefined, ops).list()).diagnostics, []);
    });
  }
});
