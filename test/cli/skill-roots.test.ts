// Skill roots as a user meets them: a project with a skill in each folder agents use. pin --all
// pins them all, verify-pins reports one left unpinned in .agents/skills/, validate and prompt
// without arguments find them, and `pin --skill-roots` changes the list (docs/formats/lock.md).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { projects } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';

/** A SKILL.md folder named `name`, version 0.1.0, at `<root>/<dir>/<name>`. */
async function skillMd(root: string, dir: string, name: string): Promise<void> {
  await mkdir(join(root, dir, name), { recursive: true });
  const text = `---\nname: ${name}\ndescription: Count the words of a text. Use when the user asks how long a text is.\nmetadata:\n  version: "0.1.0"\n---\n\n# ${name}\n\nCount the words.\n`;
  await writeFile(join(root, dir, name, 'SKILL.md'), text);
}

/** The fixture project (manifests/hello, manifests/packs/daily.yaml) plus a skill in every other default root. */
async function everyRoot(project: () => Promise<string>): Promise<string> {
  const root = await project();
  // A real project: the top of a git work tree (a lock would do too).
  await mkdir(join(root, '.git'));
  await cp(PDF_NOTES_DIR, join(root, 'skills', 'pdf-notes'), { recursive: true });
  await skillMd(root, '.agents/skills', 'word-count');
  await skillMd(root, '.claude/skills', 'line-count');
  return root;
}

interface PinJson {
  changes: { id: string; source: string; action: string }[];
}
interface VerifyJson {
  ok: boolean;
  unpinned: string[];
  diagnostics: { code: string; file?: string; hint?: string }[];
}

describe('skill roots', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('pin --all pins a skill in each default root; verify-pins passes', async () => {
    const root = await everyRoot(project);
    const r = skillctl(['pin', '--all', '--json'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      json<PinJson>(r).changes.map((c) => `${c.action} ${c.source}`),
      ['added .agents/skills/word-count', 'added .claude/skills/line-count', 'added manifests/hello', 'added skills/pdf-notes', 'added manifests/packs/daily.yaml'],
    );
    const v = skillctl(['verify-pins'], { cwd: root });
    assert.equal(v.code, 0, v.stdout);
    assert.match(v.stdout, /5 pins verified \(4 skills, 1 pack\)/);
  });

  it('verify-pins reports a skill left unpinned in .agents/skills/ and exits 1', async () => {
    const root = await everyRoot(project);
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    await skillMd(root, '.agents/skills', 'late-skill');
    const r = skillctl(['verify-pins', '--json'], { cwd: root });
    assert.equal(r.code, 1, r.stdout);
    const doc = json<VerifyJson>(r);
    assert.equal(doc.ok, false);
    assert.deepEqual(doc.unpinned, ['.agents/skills/late-skill']);
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.file, d.hint]), [['PIN_UNPINNED', '.agents/skills/late-skill', 'skillctl pin .agents/skills/late-skill']]);
    const human = skillctl(['verify-pins'], { cwd: join(root, 'manifests') });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /error {3}PIN_UNPINNED {2}skill folder \.agents\/skills\/late-skill is not pinned/);
  });

  it('validate with no arguments checks every skill root, from anywhere in the project', async () => {
    const root = await everyRoot(project);
    await writeFile(join(root, 'README.md'), '# not a skill\n');
    for (const cwd of [root, join(root, 'manifests', 'packs')]) {
      const r = skillctl(['validate', '--json'], { cwd });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      // Relative to the working directory when inside it, else absolute.
      const files = json<{ results: { file: string }[] }>(r).results.map((x) => (isAbsolute(x.file) ? relative(realpathSync(root), x.file) : relative(root, join(cwd, x.file))));
      assert.deepEqual(files.sort(), ['.agents/skills/word-count/SKILL.md', '.claude/skills/line-count/SKILL.md', 'manifests/hello/skill.yaml', 'skills/pdf-notes/SKILL.md']);
    }
    const human = skillctl(['validate'], { cwd: root });
    assert.equal(human.code, 0);
    assert.equal(human.stderr, 'searching manifests, skills, .agents/skills, .claude/skills (the default skill roots)\n');
    assert.match(human.stdout, /1 manifest and 3 SKILL\.md folders checked: all valid/);
  });

  it('validate with no arguments inside a skill folder checks that folder', async () => {
    const root = await everyRoot(project);
    const r = skillctl(['validate', '--json'], { cwd: join(root, 'skills', 'pdf-notes') });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(json<{ results: { file: string }[] }>(r).results.map((x) => x.file), ['SKILL.md']);
  });

  it('prompt with no arguments lists the SKILL.md folders of every root', async () => {
    const root = await everyRoot(project);
    const r = skillctl(['prompt', '--json'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(json<{ skills: { name: string }[] }>(r).skills.map((s) => s.name), ['pdf-notes', 'word-count', 'line-count']);
  });

  it('pin --skill-roots records the list in the lock; verify-pins and pin --all search it', async () => {
    const root = await everyRoot(project);
    await skillMd(root, 'tools/skills', 'tool-skill');
    const r = skillctl(['pin', '--all', '--skill-roots', 'manifests,tools/skills/'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^skill roots: manifests, tools\/skills \(were manifests, skills, \.agents\/skills, \.claude\/skills, \.github\/skills\)$/m);
    const lock = JSON.parse(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8')) as { skill_roots?: string[]; skills: { source: string }[] };
    assert.deepEqual(lock.skill_roots, ['manifests', 'tools/skills']);
    assert.deepEqual(lock.skills.map((s) => s.source).sort(), ['manifests/hello', 'tools/skills/tool-skill']);
    // skills/ and .agents/skills/ are no longer roots: their folders are not looked for.
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
    await skillMd(root, 'tools/skills', 'second');
    assert.deepEqual(json<VerifyJson>(skillctl(['verify-pins', '--json'], { cwd: root })).unpinned, ['tools/skills/second']);
    // validate without arguments follows the lock too.
    const v = skillctl(['validate'], { cwd: root });
    assert.equal(v.stderr, 'searching manifests, tools/skills (skill_roots in pins/skills.lock.json)\n');
    // `default` goes back to the defaults, and the lock records none.
    assert.equal(skillctl(['pin', '--all', '--skill-roots', 'default'], { cwd: root }).code, 0);
    const back = JSON.parse(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8')) as { skill_roots?: string[] };
    assert.equal(back.skill_roots, undefined);
  });

  it('refuses a root outside the project, and writes nothing', async () => {
    const root = await everyRoot(project);
    const r = skillctl(['pin', '--all', '--json', '--skill-roots', '../elsewhere'], { cwd: root });
    assert.equal(r.code, 1);
    assert.deepEqual(json<VerifyJson>(r).diagnostics.map((d) => d.code), ['SKILL_ROOTS_INVALID']);
    await assert.rejects(readFile(join(root, 'pins', 'skills.lock.json')), { code: 'ENOENT' });
  });
});
