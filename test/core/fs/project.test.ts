import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { searchProjectRoot } from '../../../src/core/fs/index.js';
import { tempDir } from '../../helpers/tmp.js';

const OTHER = 65534;
const asRoot = process.getuid?.() === 0;

describe('searchProjectRoot: whose folders make a root', () => {
  const base = realpathSync(tempDir('skillctl-project-root-'));
  /** `name/pins/skills.lock.json` and `name/work/`, the lock's `pins/` owned by `owner`. */
  const project = (name: string, owner: number): string => {
    const dir = join(base, name);
    mkdirSync(join(dir, 'pins'), { recursive: true });
    mkdirSync(join(dir, 'work'));
    writeFileSync(join(dir, 'pins', 'skills.lock.json'), '{}\n');
    chownSync(join(dir, 'pins'), owner, owner);
    return dir;
  };

  it("a user who is not root takes their own folders and root's, never another user's", async (t) => {
    if (!asRoot) return t.skip('needs root to give folders away');
    const own = project('own', 1000);
    assert.deepEqual(await searchProjectRoot(join(own, 'work'), { uid: 1000 }), { root: own, diagnostics: [] });
    const roots = project('roots', 0);
    assert.deepEqual(await searchProjectRoot(join(roots, 'work'), { uid: 1000 }), { root: roots, diagnostics: [] });
    const foreign = project('foreign', OTHER);
    const found = await searchProjectRoot(join(foreign, 'work'), { uid: 1000 });
    assert.equal(found.root, undefined);
    assert.deepEqual(
      found.diagnostics.map((d) => [d.code, d.severity, d.file]),
      [['PROJECT_ROOT_FOREIGN', 'warning', join(foreign, 'pins')]],
    );
  });

  it("root takes root's folders only", async (t) => {
    if (!asRoot) return t.skip('needs root to give folders away');
    const users = project('users', 1000);
    const found = await searchProjectRoot(join(users, 'work'), { uid: 0 });
    assert.equal(found.root, undefined);
    assert.equal(found.diagnostics[0]?.code, 'PROJECT_ROOT_FOREIGN');
  });

  it('stops at the refused folder: a .git below it is the root, a lock above it is never looked at', async (t) => {
    if (!asRoot) return t.skip('needs root to give folders away');
    const top = project('top', 0);
    const mid = join(top, 'work', 'mid');
    mkdirSync(join(mid, 'pins'), { recursive: true });
    writeFileSync(join(mid, 'pins', 'skills.lock.json'), '{}\n');
    chownSync(mid, OTHER, OTHER);
    const leaf = join(mid, 'leaf');
    mkdirSync(join(leaf, '.git'), { recursive: true });
    const found = await searchProjectRoot(join(leaf), { uid: 0 });
    assert.equal(found.root, leaf);
    assert.equal(found.diagnostics[0]?.code, 'PROJECT_ROOT_FOREIGN');
    const above = await searchProjectRoot(mid, { uid: 0 });
    assert.equal(above.root, undefined, 'the lock above the refused folder is not taken');
  });

  it('a folder every user may write (a sticky /tmp of root\'s) is no root, even holding root\'s own lock', async (t) => {
    if (!asRoot) return t.skip('needs root to give folders away');
    const sticky = project('sticky', 0);
    chmodSync(sticky, 0o1777);
    const found = await searchProjectRoot(join(sticky, 'work'), { uid: 0 });
    assert.equal(found.root, undefined);
    assert.match(found.diagnostics[0]?.message ?? '', /may be written by every user/);
    chmodSync(sticky, 0o755);
    assert.equal((await searchProjectRoot(join(sticky, 'work'), { uid: 0 })).root, sticky);
  });

  it('without uids (Windows) every owner is trusted', async () => {
    const dir = join(base, 'nouid');
    mkdirSync(join(dir, '.git'), { recursive: true });
    assert.deepEqual(await searchProjectRoot(dir, { uid: undefined }), { root: dir, diagnostics: [] });
  });
});
