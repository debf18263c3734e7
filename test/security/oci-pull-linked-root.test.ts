// Threat: a repository links the folder pull writes by default to a folder outside the project, so that `pull --force` replaces and removes the user's folder there.
// `pull oci://…` places a skill in `.agents/skills/<name>/` of the project, and `--force` moves an
// existing folder of that name aside and removes it. A cloned repository may hold `.agents/skills`
// as a link (git checks links out as links) to `~` or any folder of the user's: the pull then
// wrote outside the project, and `--force` (what refreshes a pulled skill) removed the user's own
// `~/<name>` whole. The default folder is written only when no part of it below the project root
// is a link: OUTPUT_UNWRITABLE, exit 2, nothing written or removed; `--out` names any folder.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';

describe('pull into a default folder that the repository links outside the project', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let ref: string;
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-linked-root-');
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/pdf-notes:1`;
    const pushed = cli(['push', PDF_NOTES_DIR, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    // The user's own folder outside the project, named as the skill is.
    await mkdir(join(work, 'home', 'pdf-notes'), { recursive: true });
    await writeFile(join(work, 'home', 'pdf-notes', 'thesis.txt'), 'years of work\n');
    await mkdir(join(proj, '.agents'));
    await symlink(join(work, 'home'), join(proj, '.agents', 'skills'));
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  for (const force of [false, true]) {
    it(`pull${force ? ' --force' : ''}: OUTPUT_UNWRITABLE, exit 2, the folder outside left as it was`, async () => {
      const r = cli(['pull', ref, ...(force ? ['--force'] : []), '--json']);
      assert.deepEqual([r.code, json<{ error?: { code: string } }>(r).error?.code], [2, 'OUTPUT_UNWRITABLE'], r.stdout + r.stderr);
      assert.equal(await readFile(join(work, 'home', 'pdf-notes', 'thesis.txt'), 'utf8'), 'years of work\n');
      assert.equal(existsSync(join(work, 'home', 'pdf-notes', 'SKILL.md')), false);
    });
  }
});
