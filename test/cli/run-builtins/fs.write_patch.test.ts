import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectDenied, expectOk, expectSchemaFindings } from '../../helpers/builtin-cli.js';
import { SEED_DIFF, seedTree, TEN } from '../../helpers/patch-tree.js';
import { fileContents, type Patched } from '../../helpers/skill-responses.js';

const ID = 'fs.write_patch';

/** The seed's example (two hunks in src/app.txt, a new file, a deleted one) and two hunks in src/lib.txt. */
const DIFF = `${SEED_DIFF}--- a/src/lib.txt
+++ b/src/lib.txt
@@ -2,2 +2,2 @@
-line 2
+LINE 2
 line 3
@@ -9,2 +9,2 @@
 line 9
-line 10
+LINE 10
`;

async function seedTrees(dir: string): Promise<void> {
  await seedTree(dir);
  await writeFile(join(dir, 'src', 'lib.txt'), TEN);
}

describe('skillctl run fs.write_patch', () => {
  const p = new BuiltinProject('skillctl-e2e-write-patch-');
  const work = (n: string): string => join(p.dir, 'work', n);
  let policy: string;

  before(async () => {
    for (const n of ['seed', 'reject', 'narrow', 'base']) await seedTrees(work(n));
    await mkdir(join(p.dir, 'outside'));
    await writeFile(join(p.dir, 'outside', 'x.txt'), 'x\n');
    policy = await p.policy({ permissions: { 'fs.read': ['work'], 'fs.write': ['work'] } });
  });

  it("applies the seed's example request and answers with the seed's response", async () => {
    const r = await p.plain(ID, { base: 'work/seed', unified_diff: DIFF }, { policy });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { applied: true, files_changed: 4, hunks_applied: 6, rejects: [] });
    assert.deepEqual(await fileContents(work('seed')), {
      'src/app.txt': TEN.replace('line 1\n', 'LINE 1\n') + 'line 11\n',
      'src/lib.txt': TEN.replace('line 2\n', 'LINE 2\n').replace('line 10\n', 'LINE 10\n'),
      'src/new.txt': '#!/bin/sh\necho new\n',
    });
  });

  it('is all or nothing: a failed hunk changes no file and is listed with its reason', async () => {
    const before = await fileContents(work('reject'));
    const bad = DIFF.replace(' line 9\n-line 10\n', ' line nine\n-line 10\n');
    const out = expectOk<Patched>(await p.run(ID, { base: 'work/reject', unified_diff: bad }, { policy }));
    assert.deepEqual([out.applied, out.files_changed, out.hunks_applied], [false, 0, 0]);
    assert.deepEqual(out.rejects.map((r) => [r.file, r.hunk, r.reason]), [['src/lib.txt', 2, 'context_mismatch']]);
    assert.deepEqual(await fileContents(work('reject')), before);
  });

  it('refuses a file outside the write grant, a path outside base and the policy file itself: exit 3, audited, nothing written', async () => {
    const narrow = await p.policy({ permissions: { 'fs.read': ['work'], 'fs.write': ['work/narrow/src'] } });
    const before = await fileContents(work('narrow'));
    await expectDenied(p, await p.run(ID, { base: 'work/narrow', unified_diff: DIFF }, { policy: narrow }), 'fs.write', 'POLICY_PATH_DENIED');
    assert.deepEqual(await fileContents(work('narrow')), before);

    const escape = '--- a/../../outside/x.txt\n+++ b/../../outside/x.txt\n@@ -1 +1 @@\n-x\n+y\n';
    const rec = await expectDenied(p, await p.run(ID, { base: 'work/base', unified_diff: escape }, { policy }), 'fs.write', 'SKILL_PATH_OUTSIDE_BASE');
    assert.ok(!JSON.stringify(rec).includes('outside/x.txt'), 'the record names no path from the input');
    assert.equal(await readFile(join(p.dir, 'outside', 'x.txt'), 'utf8'), 'x\n');

    // A skill granted the whole project still cannot rewrite the policy it runs under.
    const wide = await p.policy({ permissions: { 'fs.read': ['.'], 'fs.write': ['.'] } });
    const name = wide.slice(p.dir.length + 1);
    const grow = `--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-${await readFile(wide, 'utf8')}\n\\ No newline at end of file\n+{}\n`;
    const r = await expectDenied(p, await p.run(ID, { unified_diff: grow }, { policy: wide }), 'fs.write', 'POLICY_PATH_PROTECTED');
    assert.match(r.policy.reason, /protected/);
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { base: '' }, { policy }), ['/base', '/unified_diff']);
    await expectSchemaFindings(p, await p.run(ID, { unified_diff: ['--- a/x'] }, { policy }), ['/unified_diff']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 7);
  });
});
