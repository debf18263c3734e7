// Threat: a repository links the folder `pull skill://` writes by default to a folder outside the
// project, so that a pull writes there, and the refresh of a pulled skill removes the user's folder.
// `pull skill://…` places a skill in `.agents/skills/<name>/` of the project, and replaces a folder
// there that `.skillctl/mcp-origins.json` records as the same skill from the same server. A cloned
// repository may hold `.agents/skills` as a link (git checks links out as links) to `~` or any
// folder of the user's, and commit an origin record for `.agents/skills/<name>`: the pull then
// wrote outside the project, and a pull of that skill moved the user's own `~/<name>` aside and
// removed it whole. As for `pull oci://`, the default folder is written only when no part of it
// below the project root is a link: OUTPUT_UNWRITABLE, exit 2, nothing written or removed.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { SERVED, serverCommand } from '../helpers/pull-mcp.js';
import { tempDir } from '../helpers/tmp.js';

const URI = 'skill://pdf-processing/SKILL.md';

describe('pull skill:// into a default folder that the repository links outside the project', () => {
  const work = realpathSync(tempDir('skillctl-mcp-linked-root-'));
  const served = join(work, 'served');
  cpSync(join(SERVED, 'pdf-processing'), join(served, 'pdf-processing'), { recursive: true });
  const mcp = serverCommand(served);

  /** A project whose `.agents/skills` links to `home` (made here), holding the user's own folder of the skill's name when `own`. */
  const linkedProject = (name: string, own: boolean): { project: string; home: string } => {
    const project = join(work, name);
    const home = join(work, `${name}-home`);
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, '.agents'));
    mkdirSync(home);
    if (own) {
      mkdirSync(join(home, 'pdf-processing'));
      writeFileSync(join(home, 'pdf-processing', 'thesis.txt'), 'years of work\n');
    }
    symlinkSync(home, join(project, '.agents', 'skills'));
    return { project, home };
  };
  const pull = (project: string): { code: number; error: string | undefined; said: string } => {
    const r = skillctl(['pull', URI, '--mcp', mcp, '--json'], { cwd: project });
    return { code: r.code, error: json<{ error?: { code: string } }>(r).error?.code, said: r.stdout + r.stderr };
  };

  it('a first pull: OUTPUT_UNWRITABLE, exit 2, nothing written in the folder outside', () => {
    const { project, home } = linkedProject('first', false);
    const r = pull(project);
    assert.deepEqual([r.code, r.error], [2, 'OUTPUT_UNWRITABLE'], r.said);
    assert.equal(existsSync(join(home, 'pdf-processing')), false);
  });

  it('a committed origin record naming the folder: OUTPUT_UNWRITABLE, exit 2, the user\'s folder outside left as it was', () => {
    // The record an honest pull of this skill from this server writes, committed by the repository.
    const honest = join(work, 'honest');
    mkdirSync(join(honest, '.git'), { recursive: true });
    const first = skillctl(['pull', URI, '--mcp', mcp, '--json'], { cwd: honest });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const { project, home } = linkedProject('planted', true);
    mkdirSync(join(project, '.skillctl'));
    cpSync(join(honest, '.skillctl', 'mcp-origins.json'), join(project, '.skillctl', 'mcp-origins.json'));
    const r = pull(project);
    assert.deepEqual([r.code, r.error], [2, 'OUTPUT_UNWRITABLE'], r.said);
    assert.equal(readFileSync(join(home, 'pdf-processing', 'thesis.txt'), 'utf8'), 'years of work\n');
    assert.equal(existsSync(join(home, 'pdf-processing', 'SKILL.md')), false);
  });

  it('--out naming the linked folder is the user\'s choice: written there', () => {
    const { project, home } = linkedProject('chosen', false);
    const r = skillctl(['pull', URI, '--mcp', mcp, '--out', '.agents/skills', '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(existsSync(join(home, 'pdf-processing', 'SKILL.md')), true);
  });
});
