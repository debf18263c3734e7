// Threat: probing and malformed requests. A skill learns nothing about the host from an error
// code: a path outside the grant is refused the same way whether it exists or not, whatever the
// built-in. A malformed request is refused with the skill's own code, never a crash.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

describe('threat: probing the host through error codes, and malformed requests', () => {
  const tmp = tempDir('skillctl-probe-');
  let root: string;
  let proj: string;

  before(async () => {
    root = realpathSync(tmp);
    proj = join(root, 'proj');
    await mkdir(join(proj, 'ws'), { recursive: true });
    await mkdir(join(root, 'exists'));
    await writeFile(join(root, 'exists', 'f.txt'), 'x\n');
  });

  const outside = (name: string): string => join(root, name);

  it('fs.write_patch: a base outside the grant is POLICY_PATH_DENIED whether it exists, is a file or is missing', async () => {
    const { ctx } = await skillContext('fs.write_patch', { cwd: proj, policy: { read: ['.'], write: ['ws'] } });
    const diff = '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n';
    for (const base of [outside('exists'), outside('exists/f.txt'), outside('missing'), outside('missing/deeper')]) {
      assert.equal(denialCode(await runSkill('fs.write_patch', { base, unified_diff: diff }, ctx)), 'POLICY_PATH_DENIED', base);
    }
  });

  it('fs.read_text and fs.read_tree: a path outside the grant is POLICY_PATH_DENIED whether it exists or not', async () => {
    for (const [skill, key] of [
      ['fs.read_text', 'path'],
      ['fs.read_tree', 'root'],
    ] as const) {
      const { ctx } = await skillContext(skill, { cwd: proj, policy: { read: ['ws'] } });
      for (const path of [outside('exists'), outside('exists/f.txt'), outside('missing'), outside('missing/f.txt')]) {
        assert.equal(denialCode(await runSkill(skill, { [key]: path }, ctx)), 'POLICY_PATH_DENIED', `${skill} ${path}`);
      }
    }
  });

  it('fs.write_patch: a malformed C-quoted file name is SKILL_PATCH_INVALID, not a crash', async () => {
    const { ctx } = await skillContext('fs.write_patch', { cwd: proj, policy: { read: ['.'], write: ['ws'] } });
    for (const name of ['"a\\qb"', '"a\\4"', '"\\"', '"a"b"', '"\\377\\377"']) {
      const diff = `--- /dev/null\n+++ ${name}\n@@ -0,0 +1 @@\n+x\n`;
      assert.equal(errorCode(await runSkill('fs.write_patch', { base: 'ws', unified_diff: diff }, ctx)), 'SKILL_PATCH_INVALID', name);
    }
    // A well-formed one names the file it says (UTF-8 octal bytes included).
    const ok = await runSkill('fs.write_patch', { base: 'ws', unified_diff: '--- /dev/null\n+++ "b/caf\\303\\251.txt"\n@@ -0,0 +1 @@\n+x\n' }, ctx);
    assert.equal(ok.status, 'ok', JSON.stringify(ok));
  });
});
