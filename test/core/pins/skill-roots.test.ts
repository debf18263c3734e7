// Skill roots: the list, its rules, and where it is read from (src/core/pins/skill-roots.ts, project-skills.ts).
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkSkillRoots, DEFAULT_SKILL_ROOTS, emptyLock, findProjectSkills, findSkillFolders, loadLock, loadSkillRoots, renderLock } from '../../../src/core/pins/index.js';
import { projects } from '../../helpers/project.js';

const codes = (ds: readonly { code: string; pointer?: string }[]): string[] => ds.map((d) => `${d.code} ${d.pointer ?? ''}`.trim());

describe('skill roots', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('defaults to the folders agents use', () => {
    assert.deepEqual(DEFAULT_SKILL_ROOTS, ['manifests', 'skills', '.agents/skills', '.claude/skills', '.github/skills']);
  });

  it('a root is a clean relative path inside the project, listed once', () => {
    assert.deepEqual(checkSkillRoots(['skills', 'tools/skills']), []);
    assert.deepEqual(codes(checkSkillRoots(['../x', '/abs', 'a/./b', 'node_modules/s', '.skillctl', 'skills', 'skills'], { pointer: '/skill_roots' })), [
      'SKILL_ROOTS_INVALID /skill_roots/0',
      'SKILL_ROOTS_INVALID /skill_roots/1',
      'SKILL_ROOTS_INVALID /skill_roots/2',
      'SKILL_ROOTS_INVALID /skill_roots/3',
      'SKILL_ROOTS_INVALID /skill_roots/4',
      'SKILL_ROOTS_INVALID /skill_roots/6',
    ]);
    assert.deepEqual(codes(checkSkillRoots([])), ['SKILL_ROOTS_INVALID']);
  });

  it('the lock holds them; an invalid list is refused where the lock is read', () => {
    const lock = { ...emptyLock(), skill_roots: ['tools/skills'] };
    assert.deepEqual(loadLock(Buffer.from(renderLock(lock)), 'lock').loaded?.lock, lock);
    const bad = loadLock(Buffer.from(renderLock({ ...emptyLock(), skill_roots: ['..'] })), 'lock');
    assert.equal(bad.loaded, undefined);
    assert.deepEqual(codes(bad.diagnostics), ['SKILL_ROOTS_INVALID /skill_roots/0']);
  });

  it('read from the project lock: the defaults without one, the lock\'s list, the defaults and a finding for a broken one', async () => {
    const root = await project();
    assert.deepEqual(await loadSkillRoots(root), { roots: DEFAULT_SKILL_ROOTS, from: 'default', diagnostics: [] });
    await mkdir(join(root, 'pins'));
    await writeFile(join(root, 'pins', 'skills.lock.json'), renderLock({ ...emptyLock(), skill_roots: ['tools'] }));
    assert.deepEqual(await loadSkillRoots(root), { roots: ['tools'], from: 'lock', diagnostics: [] });
    await writeFile(join(root, 'pins', 'skills.lock.json'), renderLock({ ...emptyLock(), skill_roots: ['/etc'] }));
    const broken = await loadSkillRoots(root);
    assert.deepEqual([broken.roots, codes(broken.diagnostics)], [DEFAULT_SKILL_ROOTS, ['SKILL_ROOTS_INVALID /skill_roots/0']]);
  });

  it('finds the skill folders under every root once, overlapping roots and nested folders included', async () => {
    const root = await project();
    for (const dir of ['skills/a', '.agents/skills/b', '.claude/skills/c', 'skills/a/inner']) {
      await mkdir(join(root, dir), { recursive: true });
      await writeFile(join(root, dir, 'SKILL.md'), '---\nname: x\ndescription: x\n---\n');
    }
    assert.deepEqual(await findSkillFolders(root), ['.agents/skills/b', '.claude/skills/c', 'manifests/hello', 'skills/a']);
    assert.deepEqual(await findSkillFolders(root, ['skills', 'skills/a/inner']), ['skills/a']);
    assert.deepEqual((await findProjectSkills(root)).folders, ['.agents/skills/b', '.claude/skills/c', 'manifests/hello', 'skills/a']);
  });

  it('a folder directly in a root is a skill folder whatever its name; deeper, node_modules and .skillctl are not entered', async () => {
    const root = await project();
    for (const dir of ['.claude/skills/node_modules', 'skills/.skillctl', 'skills/node_modules/pkg', 'skills/x/node_modules/pkg']) {
      await mkdir(join(root, dir), { recursive: true });
      await writeFile(join(root, dir, 'SKILL.md'), '---\nname: x\ndescription: x\n---\n');
    }
    assert.deepEqual(await findSkillFolders(root), ['.claude/skills/node_modules', 'manifests/hello', 'skills/.skillctl']);
  });
});
