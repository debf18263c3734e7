import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { CODES } from '../../../src/core/diagnostics.js';
import { resolveSkill } from '../../../src/core/run/index.js';
import { stageBundle, stageListed, type StagedBundle, type StageRefusal } from '../../../src/core/run/stage.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { writeLock } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';

function staged(r: StagedBundle | StageRefusal): StagedBundle {
  assert.ok('dir' in r, `not staged: ${JSON.stringify(r)}`);
  return r;
}

function refused(r: StagedBundle | StageRefusal): StageRefusal {
  assert.ok(!('dir' in r), 'staged, but should have been refused');
  return r;
}

async function files(dir: string): Promise<string[]> {
  return ((await readdir(dir, { recursive: true, withFileTypes: true })) as { name: string; parentPath?: string; path?: string; isFile(): boolean }[])
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path ?? '', e.name).slice(dir.length + 1))
    .sort();
}

describe('stageBundle: the private copy a run verifies and runs', () => {
  const tmp = tempDir('skillctl-stage-');
  let root: string;
  let bundle: string;
  let scratch: string;
  let outside: string;

  before(async () => {
    root = realpathSync(tmp);
    scratch = join(root, 'scratch');
    outside = join(root, 'outside');
    await mkdir(scratch);
    await mkdir(join(outside, 'lib'), { recursive: true });
    await writeFile(join(outside, 'lib', 'util.js'), 'OUTSIDE-SECRET\n');
    bundle = await writeBundle(join(root, 'bundle'), {
      entrypoints: [entry()],
      files: { 'run.sh': '#!/bin/sh\necho hi\n', 'lib/util.js': 'module.exports = 1;\n', '.skillignore': 'notes/\n', 'notes/draft.txt': 'not pinned\n' },
      executable: ['run.sh'],
    });
    await mkdir(join(bundle, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(bundle, 'node_modules', 'dep', 'index.js'), 'unpinned code\n');
  });

  it('copies exactly the files the digests cover, with their execute bits, and nothing the digests leave out', async () => {
    const s = staged(await stageBundle(bundle, scratch));
    try {
      assert.ok(s.dir.startsWith(join(scratch, 'skillctl-run-')), s.dir);
      assert.deepEqual(await files(s.dir), ['.skillignore', 'lib/util.js', 'run.sh', 'skill.json']);
      assert.equal(((await stat(join(s.dir, 'run.sh'))).mode & 0o777).toString(8), '755');
      assert.equal(((await stat(join(s.dir, 'lib', 'util.js'))).mode & 0o777).toString(8), '644');
      assert.equal(await readFile(join(s.dir, 'lib', 'util.js'), 'utf8'), 'module.exports = 1;\n');
    } finally {
      await s.cleanup();
    }
    assert.deepEqual(await readdir(scratch), [], 'cleanup removes the copy and its scratch directory');
  });

  it('the copy goes whole when the run ends, deep folders and files written into it (a program run without a sandbox) included', async () => {
    const dir = await writeBundle(join(root, 'deep'), { entrypoints: [entry()], files: { 'a/b/c/d.txt': 'd', 'a/e.txt': 'e' } });
    const s = staged(await stageBundle(dir, scratch));
    assert.deepEqual(await files(s.dir), ['a/b/c/d.txt', 'a/e.txt', 'skill.json']);
    await writeFile(join(s.dir, 'a', 'b', 'written-by-the-skill.txt'), 'x');
    await s.cleanup();
    assert.deepEqual(await readdir(scratch), []);
    const again = staged(await stageBundle(dir, scratch));
    await again.cleanup();
    assert.deepEqual(await readdir(scratch), []);
  });

  it('a file swapped for a symlink after the listing is refused, and no copy is left', async () => {
    const listing = [{ path: 'lib/util.js', size: 20, mode: '0644' as const }];
    const dir = join(root, 'swapped-file');
    await mkdir(join(dir, 'lib'), { recursive: true });
    await symlink(join(outside, 'lib', 'util.js'), join(dir, 'lib', 'util.js'));
    const r = refused(await stageListed(dir, listing, scratch));
    assert.equal(r.kind, 'changed');
    assert.match(r.kind === 'changed' ? r.reason : '', /cannot be opened \(ELOOP\)/);
    assert.deepEqual(await readdir(scratch), []);
  });

  it('a directory swapped for a symlink out of the bundle after the listing is refused: the outside file is never copied', async () => {
    const listing = [{ path: 'lib/util.js', size: 20, mode: '0644' as const }];
    const dir = join(root, 'swapped-dir');
    await mkdir(dir);
    await symlink(join(outside, 'lib'), join(dir, 'lib'));
    const r = refused(await stageListed(dir, listing, scratch));
    assert.deepEqual(r, { kind: 'changed', file: 'lib/util.js', reason: 'it no longer lies inside the bundle' });
    assert.deepEqual(await readdir(scratch), []);
  });

  it('a FIFO swapped in after the listing is refused without blocking', async () => {
    const dir = join(root, 'fifo');
    await mkdir(dir);
    execFileSync('mkfifo', [join(dir, 'main.js')]);
    const r = refused(await stageListed(dir, [{ path: 'main.js', size: 10, mode: '0644' }], scratch));
    assert.deepEqual(r, { kind: 'changed', file: 'main.js', reason: 'it is no longer a regular file' });
  });

  it('a file grown after the listing is copied only up to the listed size (its digest then tells)', async () => {
    const dir = join(root, 'grown');
    await mkdir(dir);
    await writeFile(join(dir, 'data.txt'), 'abcdef-and-much-more');
    const s = staged(await stageListed(dir, [{ path: 'data.txt', size: 6, mode: '0644' }], scratch));
    try {
      assert.equal(await readFile(join(s.dir, 'data.txt'), 'utf8'), 'abcdef');
    } finally {
      await s.cleanup();
    }
  });

  it('a bundle whose listing has errors (a symlink) is not copied: the listing findings come back', async () => {
    const dir = await writeBundle(join(root, 'linked'), { entrypoints: [entry()], files: { 'a.txt': 'a' } });
    await symlink('/etc/hostname', join(dir, 'host'));
    const r = refused(await stageBundle(dir, scratch));
    assert.equal(r.kind, 'listing');
    assert.deepEqual(r.kind === 'listing' ? r.diagnostics.map((d) => d.code) : [], ['BUNDLE_SYMLINK']);
  });
});

describe('resolveSkill with stage: what runs is what was verified', () => {
  const tmp = tempDir('skillctl-stage-resolve-');
  let root: string;
  let project: string;
  let scratch: string;

  before(async () => {
    root = realpathSync(tmp);
    project = join(root, 'project');
    scratch = join(root, 'scratch');
    await mkdir(scratch);
    const dir = await writeBundle(join(project, 'skills', 'tool'), { skill_id: 'test.tool', entrypoints: [entry({ runtime: 'node', runtime_version: '20.19.0', command: 'node main.js' })], files: { 'main.js': 'console.log("pinned")\n' } });
    const m = JSON.parse(await readFile(join(dir, 'skill.json'), 'utf8')) as Record<string, string>;
    await writeLock(project, [{ skill_id: 'test.tool', skill_version: '0.1.0', source: 'skills/tool', manifest_digest: m.manifest_digest as `sha256:${string}`, content_digest: m.content_digest as `sha256:${string}` }]);
  });

  it('a pinned bundle resolves to a copy in the scratch directory; a later edit of the original does not reach it', async () => {
    const r = await resolveSkill('test.tool', { cwd: project, projectRoot: project, scratchDir: scratch, stage: true });
    assert.ok(r.skill !== undefined, JSON.stringify(r.diagnostics));
    try {
      assert.ok(r.skill.dir.startsWith(join(scratch, 'skillctl-run-')), r.skill.dir);
      await writeFile(join(project, 'skills', 'tool', 'main.js'), 'console.log("edited after the check")\n');
      assert.equal(await readFile(join(r.skill.dir, 'main.js'), 'utf8'), 'console.log("pinned")\n');
    } finally {
      await r.cleanup?.();
      await writeFile(join(project, 'skills', 'tool', 'main.js'), 'console.log("pinned")\n');
    }
    assert.deepEqual(await readdir(scratch), []);
  });

  it('an edited pinned bundle is refused (CONTENT_DIGEST_MISMATCH, RUN_BUNDLE_INVALID) and leaves no copy behind', async () => {
    await rename(join(project, 'skills', 'tool', 'main.js'), join(root, 'main.js.orig'));
    await writeFile(join(project, 'skills', 'tool', 'main.js'), 'console.log("edited")\n');
    try {
      const r = await resolveSkill('test.tool', { cwd: project, projectRoot: project, scratchDir: scratch, stage: true });
      assert.equal(r.skill, undefined);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['CONTENT_DIGEST_MISMATCH', 'RUN_BUNDLE_INVALID']);
    } finally {
      await rename(join(root, 'main.js.orig'), join(project, 'skills', 'tool', 'main.js'));
    }
    assert.deepEqual(await readdir(scratch), []);
  });

  it('with no writable scratch directory nothing runs: RUN_TARGET_INVALID (exit 2), naming the place', async () => {
    const missing = join(root, 'no-such-dir');
    const r = await resolveSkill('test.tool', { cwd: project, projectRoot: project, scratchDir: missing, stage: true });
    assert.equal(r.skill, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['RUN_TARGET_INVALID']);
    assert.match(r.diagnostics[0]?.message ?? '', /cannot be copied for its run: no scratch directory in .*no-such-dir \(ENOENT\)/);
    assert.equal(CODES.RUN_TARGET_INVALID.exit, 'usage');
  });

  it('without stage (a caller that only reads the manifest) the bundle resolves where it lies', async () => {
    const r = await resolveSkill('test.tool', { cwd: project, projectRoot: project, scratchDir: scratch });
    assert.equal(r.skill?.dir, join(project, 'skills', 'tool'));
    assert.deepEqual(await readdir(scratch), []);
  });
});
