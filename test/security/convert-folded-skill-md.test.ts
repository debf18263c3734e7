// Threat: a bundle whose files `convert --to skill-md` cannot give a SKILL.md without making the
// folder invalid, which ended the command as an internal error, "a bug in skillctl".
// A repository's bundle holds `Skill.md` (notes, a file of the bundle, covered by its digests):
// convert wrote `SKILL.md` beside it, and only the validation after the write found the two names
// that macOS and Windows store as one file (where `--force` replaced the user's `Skill.md` with the
// new text). Until the stop of 2026-12-01 that was INTERNAL (exit 1, "this is a bug"); now the name
// is refused before anything is written: BUNDLE_PATH_COLLISION, exit 1, the folder as it was. A
// folder that the new file takes past a bound (20,000 files) is refused likewise, its files put back
// (not exercised here: building 20,000 files costs a dozen seconds).
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';
import { fixture } from '../helpers/paths.js';

describe('convert --to skill-md of a bundle holding a name that folds to SKILL.md', () => {
  const sc = scratch('skillctl-convert-folded-');

  for (const force of [false, true]) {
    it(`Skill.md beside the manifest${force ? ', --force' : ''}: BUNDLE_PATH_COLLISION, exit 1, nothing written`, async () => {
      const name = force ? 'forced' : 'plain';
      const dir = join(sc.work, name);
      await cp(fixture('pack', 'golden-bundle'), dir, { recursive: true });
      await writeFile(join(dir, 'Skill.md'), 'my notes about this skill\n');
      const fixed = await attempt(['validate', dir, '--fix'], { cwd: sc.work });
      assert.equal(fixed.exit, 0, fixed.stdout + fixed.stderr);
      const before = await treeState(dir);
      const r = await attempt(['convert', dir, '--to', 'skill-md', '--name', name, ...(force ? ['--force'] : [])], { cwd: sc.work });
      assert.deepEqual([r.exit, r.errors], [1, ['BUNDLE_PATH_COLLISION']], r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /INTERNAL|this is a bug/);
      assert.deepEqual(await treeState(dir), before, 'the folder is as it was');
    });
  }

  it('an Agent Skills folder holding Skill.yaml, converted to a manifest: BUNDLE_PATH_COLLISION, exit 1, nothing written', async () => {
    const dir = join(sc.work, 'notes');
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), '---\nname: notes\ndescription: Notes. Use when testing.\n---\nbody\n');
    await writeFile(join(dir, 'scripts', 'main.py'), 'print("{}")\n');
    await writeFile(join(dir, 'Skill.yaml'), 'notes: mine\n');
    const before = await treeState(dir);
    const r = await attempt(['convert', dir, '--python-version', '3.12.4'], { cwd: sc.work });
    assert.deepEqual([r.exit, r.errors], [1, ['BUNDLE_PATH_COLLISION']], r.stdout + r.stderr);
    assert.deepEqual(await treeState(dir), before, 'the folder is as it was');
  });
});
