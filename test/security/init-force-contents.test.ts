// Threat: a folder `init --force` writes into holds files that make the new skill invalid, which
// ended the command as an internal error, "a bug in skillctl", after it had written its files.
// `init DIR --force` writes into a folder that is not empty, and the files already there are part
// of the bundle: a repository's folder may hold a link, a FIFO, a `skill.json`, a `Skill.md` beside
// the `SKILL.md` init writes (one file on macOS and Windows, where init replaced the user's), or a
// `.skillignore` that leaves out what init writes. Until the stop of 2026-12-01 init wrote its files
// and then ended with INTERNAL ("the new bundle does not validate", exit 1). Now what the folder's
// listing refuses is found before anything is written (its own code, exit 1, the folder as it
// was), and a result that does not validate for any other reason is reported with its findings
// (exit 1), never as a bug.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { attempt, scratch, treeState } from '../helpers/attack.js';

interface Row {
  readonly name: string;
  readonly format: 'manifest' | 'skill-md';
  readonly plant: (dir: string, outside: string) => Promise<void>;
  readonly code: string;
  /** Refused before anything is written: the folder stays as it was. */
  readonly untouched: boolean;
}

const rows: readonly Row[] = [
  { name: 'a link to a file outside', format: 'manifest', plant: (d, o) => symlink(join(o, 'secret.txt'), join(d, 'notes.txt')), code: 'BUNDLE_SYMLINK', untouched: true },
  { name: 'a FIFO', format: 'manifest', plant: async (d) => void execFileSync('mkfifo', [join(d, 'pipe')]), code: 'BUNDLE_SPECIAL_FILE', untouched: true },
  { name: 'a skill.json beside the skill.yaml init writes', format: 'manifest', plant: (d) => writeFile(join(d, 'skill.json'), '{}\n'), code: 'BUNDLE_AMBIGUOUS_MANIFEST', untouched: true },
  { name: 'Skill.md beside the SKILL.md init writes', format: 'skill-md', plant: (d) => writeFile(join(d, 'Skill.md'), 'my notes\n'), code: 'BUNDLE_PATH_COLLISION', untouched: true },
  { name: 'scripts/Main.sh beside the scripts/main.sh init writes', format: 'manifest', plant: async (d) => { await mkdir(join(d, 'scripts')); await writeFile(join(d, 'scripts', 'Main.sh'), 'echo mine\n'); }, code: 'BUNDLE_PATH_COLLISION', untouched: true },
  { name: 'a .skillignore that leaves out skill.yaml', format: 'manifest', plant: (d) => writeFile(join(d, '.skillignore'), 'skill.yaml\n'), code: 'BUNDLE_NO_MANIFEST', untouched: false },
];

describe('init --force into a folder whose files make the new skill invalid', () => {
  const sc = scratch('skillctl-init-contents-');

  rows.forEach((row, i) => {
    it(`${row.name}: ${row.code}, exit 1, never INTERNAL${row.untouched ? ', nothing written' : ''}`, async () => {
      const name = `busy${i}`;
      const dir = join(sc.work, name);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      await row.plant(dir, sc.outside);
      const before = await treeState(dir);
      const outside = await treeState(sc.outside);
      const args = ['init', name, '--yes', '--force', '--description', 'Busy. Use when testing.', '--format', row.format];
      const r = await attempt(row.format === 'manifest' ? [...args, '--runtime', 'shell', '--runtime-version', 'bash@5.2'] : args, { cwd: sc.work });
      assert.deepEqual([r.exit, r.errors], [1, [row.code]], r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /INTERNAL|this is a bug/);
      if (row.untouched) assert.deepEqual(await treeState(dir), before, 'the folder is as it was');
      assert.deepEqual(await treeState(sc.outside), outside, 'nothing outside changed');
    });
  });
});
