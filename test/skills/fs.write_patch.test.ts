import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import { fileContents, type Patched } from '../helpers/skill-responses.js';
import { SEED_DIFF, seedTree, TEN } from '../helpers/patch-tree.js';

const ID = 'fs.write_patch';

describe('fs.write_patch', () => {
  it("applies the seed's example: modifies, creates and deletes files, atomically", async () => {
      const dir = tempDir();
      await seedTree(dir);
      await chmod(join(dir, 'src', 'app.txt'), 0o600);
      const { ctx, gate } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: SEED_DIFF }, ctx));
      assert.deepEqual(out, { applied: true, files_changed: 3, hunks_applied: 4, rejects: [] });
      assert.equal(await readFile(join(dir, 'src', 'app.txt'), 'utf8'), TEN.replace('line 1\n', 'LINE 1\n') + 'line 11\n');
      assert.equal(await readFile(join(dir, 'src', 'new.txt'), 'utf8'), '#!/bin/sh\necho new\n');
      assert.equal((await stat(join(dir, 'src', 'new.txt'))).mode & 0o777, 0o755);
      assert.equal((await stat(join(dir, 'src', 'app.txt'))).mode & 0o777, 0o600, 'mode kept');
      await assert.rejects(stat(join(dir, 'old.txt')));
      assert.deepEqual(Object.keys(await fileContents(dir)).sort(), ['src/app.txt', 'src/new.txt'], 'no temporary files left');
      assert.ok(gate.uses.filter((u) => u.scope === 'fs.write' && u.allowed).length >= 3, 'each file checked for writing');
    });

  it('changes nothing when any hunk fails, and lists each failed hunk with its reason', async () => {
      const dir = tempDir();
      await seedTree(dir);
      const before = await fileContents(dir);
      const bad = SEED_DIFF.replace(' line 9\n line 10\n+line 11', ' line 9\n line ten\n+line 11');
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'] } });
      const out = okOutput<Patched>(await runSkill(ID, { unified_diff: bad }, ctx));
      assert.equal(out.applied, false);
      assert.equal(out.files_changed, 0);
      assert.equal(out.hunks_applied, 0);
      assert.deepEqual(out.rejects.map((r) => [r.file, r.hunk, r.reason]), [['src/app.txt', 2, 'context_mismatch']]);
      assert.deepEqual(await fileContents(dir), before);
    });

  it('rejects creating an existing file, patching a missing one, and a delete that does not match', async () => {
      const dir = tempDir();
      await seedTree(dir);
      await writeFile(join(dir, 'src', 'new.txt'), 'already here\n');
      await writeFile(join(dir, 'old.txt'), 'going\naway\nand more\n');
      const diff = SEED_DIFF + '--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-a\n+b\n';
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'] } });
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
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'] } });
      assert.equal(errorCode(await runSkill(ID, { unified_diff: diff }, ctx)), 'SKILL_WRITE_FAILED');
      assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'a\n');
    });

  it('renames, and applies paths relative to base', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'pkg'));
      await writeFile(join(dir, 'pkg', 'r1.txt'), 'one\ntwo\n');
      const diff = 'diff --git a/r1.txt b/r2.txt\nsimilarity index 50%\nrename from r1.txt\nrename to r2.txt\n--- a/r1.txt\n+++ b/r2.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n';
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['pkg'] } });
      const out = okOutput<Patched>(await runSkill(ID, { base: 'pkg', unified_diff: diff }, ctx));
      assert.deepEqual([out.applied, out.files_changed], [true, 2]);
      assert.deepEqual(await fileContents(join(dir, 'pkg')), { 'r2.txt': 'one\nTWO\n' });
    });

  it('is denied where the policy allows no writing', async () => {
      const dir = tempDir();
      await seedTree(dir);
      const before = await fileContents(dir);
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['src'] } });
      assert.equal(denialCode(await runSkill(ID, { unified_diff: SEED_DIFF }, ctx)), 'POLICY_PATH_DENIED');
      assert.deepEqual(await fileContents(dir), before);
    });

  it('refuses a diff it cannot parse, and binary patches', async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'img.png'), 'x');
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'] } });
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
