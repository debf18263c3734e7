import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

const ID = 'fs.write_patch';

interface Patched {
  applied: boolean;
  files_changed: number;
  hunks_applied: number;
  rejects: { file: string; hunk: number; reason: string; detail: string }[];
}

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

const SEED_DIFF = `diff --git a/src/app.txt b/src/app.txt
index 1111111..2222222 100644
--- a/src/app.txt
+++ b/src/app.txt
@@ -1,3 +1,3 @@
-line 1
+LINE 1
 line 2
 line 3
@@ -8,3 +8,4 @@
 line 8
 line 9
 line 10
+line 11
diff --git a/src/new.txt b/src/new.txt
new file mode 100755
index 0000000..3333333
--- /dev/null
+++ b/src/new.txt
@@ -0,0 +1,2 @@
+#!/bin/sh
+echo new
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 4444444..0000000
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-going
-away
`;

async function seedTree(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'src', 'app.txt'), TEN);
  await writeFile(join(dir, 'old.txt'), 'going\naway\n');
}

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (f.isFile()) out[join(f.parentPath, f.name).slice(dir.length + 1)] = await readFile(join(f.parentPath, f.name), 'utf8');
  }
  return out;
}

describe('fs.write_patch', () => {
  it("applies the seed's example: modifies, creates and deletes files, atomically", async () => {
      const dir = tempDir();
      await seedTree(dir);
      await chmod(join(dir, 'src', 'app.txt'), 0o600);
      const { ctx, gate } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: SEED_DIFF }, ctx));
      assert.deepEqual(out, { applied: true, files_changed: 3, hunks_applied: 4, rejects: [] });
      assert.equal(await readFile(join(dir, 'src', 'app.txt'), 'utf8'), TEN.replace('line 1\n', 'LINE 1\n') + 'line 11\n');
      assert.equal(await readFile(join(dir, 'src', 'new.txt'), 'utf8'), '#!/bin/sh\necho new\n');
      assert.equal((await stat(join(dir, 'src', 'new.txt'))).mode & 0o777, 0o755);
      assert.equal((await stat(join(dir, 'src', 'app.txt'))).mode & 0o777, 0o600, 'mode kept');
      await assert.rejects(stat(join(dir, 'old.txt')));
      assert.deepEqual(Object.keys(await snapshot(dir)).sort(), ['src/app.txt', 'src/new.txt'], 'no temporary files left');
      assert.ok(gate.calls.filter((c) => c.op === 'write').length >= 3, 'each file checked for writing');
    });

  it('changes nothing when any hunk fails, and lists each failed hunk with its reason', async () => {
      const dir = tempDir();
      await seedTree(dir);
      const before = await snapshot(dir);
      const bad = SEED_DIFF.replace(' line 9\n line 10\n+line 11', ' line 9\n line ten\n+line 11');
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: bad }, ctx));
      assert.equal(out.applied, false);
      assert.equal(out.files_changed, 0);
      assert.equal(out.hunks_applied, 0);
      assert.deepEqual(out.rejects.map((r) => [r.file, r.hunk, r.reason]), [['src/app.txt', 2, 'context_mismatch']]);
      assert.deepEqual(await snapshot(dir), before);
    });

  it('rejects creating an existing file, patching a missing one, and a delete that does not match', async () => {
      const dir = tempDir();
      await seedTree(dir);
      await writeFile(join(dir, 'src', 'new.txt'), 'already here\n');
      await writeFile(join(dir, 'old.txt'), 'going\naway\nand more\n');
      const diff = SEED_DIFF + '--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-a\n+b\n';
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: diff }, ctx));
      assert.equal(out.applied, false);
      assert.deepEqual(out.rejects.map((r) => [r.file, r.reason]), [
        ['src/new.txt', 'file_exists'],
        ['old.txt', 'delete_mismatch'],
        ['missing.txt', 'file_missing'],
      ]);
    });

  it('restores the files it wrote when a later write fails', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'a.txt'), 'a\n');
      await writeFile(join(dir, 'blocker'), 'a file where a directory is needed\n');
      const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- /dev/null\n+++ b/blocker/new.txt\n@@ -0,0 +1 @@\n+x\n';
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      assert.equal(errorCode(await runSkill(ID, { unified_diff: diff }, ctx)), 'SKILL_WRITE_FAILED');
      assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'a\n');
    });

  it('renames, and applies paths relative to base', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'pkg'));
      await writeFile(join(dir, 'pkg', 'r1.txt'), 'one\ntwo\n');
      const diff = 'diff --git a/r1.txt b/r2.txt\nsimilarity index 50%\nrename from r1.txt\nrename to r2.txt\n--- a/r1.txt\n+++ b/r2.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n';
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['pkg'] } });
      const out = okOutput<Patched>(await runSkill(ID, { base: 'pkg', unified_diff: diff }, ctx));
      assert.deepEqual([out.applied, out.files_changed], [true, 2]);
      assert.deepEqual(await snapshot(join(dir, 'pkg')), { 'r2.txt': 'one\nTWO\n' });
    });

  it('refuses paths outside base: .., absolute, and through a symlink', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'base'));
      await mkdir(join(dir, 'outside'));
      await writeFile(join(dir, 'outside', 'x.txt'), 'x\n');
      await symlink(join(dir, 'outside'), join(dir, 'base', 'link'));
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const patch = (p: string): string => `--- ${p}\n+++ ${p}\n@@ -1 +1 @@\n-x\n+y\n`;
      for (const p of ['../outside/x.txt', `${dir}/outside/x.txt`, 'link/x.txt', 'a/../../outside/x.txt']) {
        assert.equal(denialCode(await runSkill(ID, { base: 'base', unified_diff: patch(p) }, ctx)), 'SKILL_PATH_OUTSIDE_BASE', p);
      }
      assert.equal(await readFile(join(dir, 'outside', 'x.txt'), 'utf8'), 'x\n');
    });

  it('is denied where the policy allows no writing', async () => {
      const dir = tempDir();
      await seedTree(dir);
      const before = await snapshot(dir);
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['src'] } });
      assert.equal(denialCode(await runSkill(ID, { unified_diff: SEED_DIFF }, ctx)), 'SKILL_NOT_ALLOWED');
      assert.deepEqual(await snapshot(dir), before);
    });

  it('refuses a diff it cannot parse, and binary patches', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'img.png'), 'x');
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], write: ['.'] } });
      assert.equal(errorCode(await runSkill(ID, { unified_diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n' }, ctx)), 'SKILL_PATCH_INVALID');
      assert.equal(errorCode(await runSkill(ID, { unified_diff: 'just some text\n' }, ctx)), 'SKILL_PATCH_INVALID');
      const binary = 'diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n';
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: binary }, ctx));
      assert.deepEqual(out.rejects.map((r) => r.reason), ['binary_patch']);
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/unified_diff' }]);
    assert.deepEqual(await inputFindings(ID, { unified_diff: 3 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/unified_diff' }]);
    assert.deepEqual(await inputFindings(ID, { unified_diff: 'x', base: '' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/base' }]);
  });
});
