// Threat: the grant of later runs (a project root planted where the user did not make one).
// In a shared, sticky, world-writable folder such as /tmp, any local user can create
// `/tmp/pins/skills.lock.json` (or `/tmp/.git`) and `/tmp/skillctl.policy.yaml`: every skillctl a
// victim started in `/tmp/work` took /tmp for its project root (until the stop of 2026-12-02),
// so `run demo.hello` ran the planter's skill from the planter's lock, and a run of the victim's
// own bundle obeyed the planter's policy. As git's safe.directory check does, a folder holding a
// lock or `.git` that the user (or, for a user who is not root, root) does not own, or whose
// `pins/`, lock or `.git` they do not own, is never a root: the search stops there and warns
// (PROJECT_ROOT_FOREIGN); a root below it (the user's own `.git`) is still found.
// Tests run as root here: the other user is uid 65534 (nobody), made owner with chown.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { chmod, chown, lchown, readdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';
import { isRoot } from '../helpers/hostile.js';
import { skillctl } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';

const OTHER = 65534;
const GRANTS_ALL = 'version: 1\npermissions:\n  fs.read: [/]\n';

/** Gives `path` and everything below it to `uid`. */
async function chownTree(path: string, uid: number): Promise<void> {
  const st = await lstat(path);
  if (st.isDirectory()) for (const name of await readdir(path)) await chownTree(join(path, name), uid);
  await (st.isSymbolicLink() ? lchown(path, uid, uid) : chown(path, uid, uid));
}

interface Shared {
  readonly dir: string;
  /** The victim's working folder, their own, inside `dir`. */
  readonly work: string;
}

/**
 * A sticky world-writable folder (as /tmp) holding a pinned project and a policy granting `/` to
 * read; the pinned project's files owned by `planter`. `work/mine/` is the victim's own bundle.
 */
async function sharedWithPlantedLock(base: string, name: string, planter: number): Promise<Shared> {
  const dir = join(base, name);
  cpSync(fixture('pins', 'project'), dir, { recursive: true });
  const pin = skillctl(['pin', '--all', '--json'], { cwd: dir });
  assert.equal(pin.code, 0, pin.stdout + pin.stderr);
  writeFileSync(join(dir, 'skillctl.policy.yaml'), GRANTS_ALL);
  await chmod(dir, 0o1777);
  for (const planted of ['pins', 'manifests', 'skillctl.policy.yaml']) await chownTree(join(dir, planted), planter);
  const work = join(dir, 'work');
  mkdirSync(work);
  cpSync(fixture('pins', 'project', 'manifests', 'hello'), join(work, 'mine'), { recursive: true });
  return { dir, work };
}

const warned = (stdout: string): boolean => /PROJECT_ROOT_FOREIGN/.test(stdout);

describe('a project root planted in a shared parent folder by another user', () => {
  const s = scratch('skillctl-foreign-root-');

  it('a lock planted by another user: run demo.hello does not run the planted skill', async (t) => {
    if (!isRoot()) return t.skip('needs root to give a folder to another user');
    const sh = await sharedWithPlantedLock(s.root, 'shared-lock', OTHER);
    const before = await treeState(s.outside);
    const r = await attempt(['run', 'demo.hello', '--no-audit'], { cwd: sh.work });
    assert.notEqual(r.status, 'ok', `the planted skill ran:\n${r.stdout}`);
    assert.notEqual(r.exit, 0, r.stdout);
    assert.ok(warned(r.stdout + r.stderr), `no PROJECT_ROOT_FOREIGN:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout + r.stderr, new RegExp(sh.dir.replace(/[/.]/g, '\\$&')));
    assert.deepEqual(await treeState(s.outside), before);
  });

  it("a lock planted by another user: the victim's own bundle runs under the default policy, not the planted one", async (t) => {
    if (!isRoot()) return t.skip('needs root to give a folder to another user');
    const sh = await sharedWithPlantedLock(s.root, 'shared-policy', OTHER);
    const r = await attempt(['run', './mine', '--no-audit'], { cwd: sh.work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout) as { policy: { source: string } };
    assert.equal(doc.policy.source, 'default', 'the planted policy was obeyed');
    assert.ok(warned(r.stdout + r.stderr), r.stdout + r.stderr);
  });

  it('verify-pins does not verify the planted lock as the project', async (t) => {
    if (!isRoot()) return t.skip('needs root to give a folder to another user');
    const sh = await sharedWithPlantedLock(s.root, 'shared-verify', OTHER);
    const r = await attempt(['verify-pins'], { cwd: sh.work });
    assert.notEqual(r.exit, 0, `the planted lock was verified as the project's:\n${r.stdout}`);
  });

  it('a .git planted by another user makes no root: its policy is not obeyed', async (t) => {
    if (!isRoot()) return t.skip('needs root to give a folder to another user');
    const dir = join(s.root, 'shared-git');
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, 'skillctl.policy.yaml'), GRANTS_ALL);
    await chmod(dir, 0o1777);
    await chownTree(join(dir, '.git'), OTHER);
    await chownTree(join(dir, 'skillctl.policy.yaml'), OTHER);
    const work = join(dir, 'work');
    cpSync(fixture('pins', 'project', 'manifests', 'hello'), join(work, 'mine'), { recursive: true });
    const r = await attempt(['run', './mine', '--no-audit'], { cwd: work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    assert.equal((JSON.parse(r.stdout) as { policy: { source: string } }).policy.source, 'default');
    assert.ok(warned(r.stdout + r.stderr), r.stdout + r.stderr);
  });

  it("the victim's own .git below a planted lock is the root", async (t) => {
    if (!isRoot()) return t.skip('needs root to give a folder to another user');
    const sh = await sharedWithPlantedLock(s.root, 'shared-own-git', OTHER);
    mkdirSync(join(sh.work, '.git'));
    writeFileSync(join(sh.work, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n');
    const r = await attempt(['run', './mine', '--no-audit'], { cwd: sh.work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    assert.equal((JSON.parse(r.stdout) as { policy: { source: string } }).policy.source, join(sh.work, 'skillctl.policy.yaml'));
  });

  it("the user's own lock in a parent folder is still the root, without a warning", async () => {
    const sh = await sharedWithPlantedLock(s.root, 'own', process.getuid?.() ?? 0);
    await chmod(sh.dir, 0o755);
    const r = await attempt(['run', 'demo.hello', '--no-audit'], { cwd: sh.work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    assert.equal(r.status, 'ok');
    const mine = await attempt(['run', './mine', '--no-audit'], { cwd: sh.work });
    assert.equal((JSON.parse(mine.stdout) as { policy: { source: string } }).policy.source, join(sh.dir, 'skillctl.policy.yaml'));
    assert.ok(!warned(r.stdout + r.stderr + mine.stdout + mine.stderr));
  });
});
