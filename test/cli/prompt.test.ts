import assert from 'node:assert/strict';
import { cpSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

function skill(root: string, folder: string, name: string, description: string): string {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody\n`);
  return dir;
}

describe('skillctl prompt', () => {
  it('prints the <available_skills> block exactly as skills-ref to-prompt does, XML-escaped', () => {
    const root = realpathSync(tempDir());
    skill(root, 'skills/a-skill', 'a-skill', 'Use <foo> & "bar"');
    skill(root, 'skills/b-skill', 'b-skill', "It's second");
    const r = skillctl(['prompt', 'skills/b-skill', 'skills/a-skill'], { cwd: root });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        '<available_skills>',
        '<skill>', '<name>', 'b-skill', '</name>', '<description>', 'It&#x27;s second', '</description>',
        '<location>', join(root, 'skills/b-skill/SKILL.md'), '</location>', '</skill>',
        '<skill>', '<name>', 'a-skill', '</name>', '<description>', 'Use &lt;foo&gt; &amp; &quot;bar&quot;', '</description>',
        '<location>', join(root, 'skills/a-skill/SKILL.md'), '</location>', '</skill>',
        '</available_skills>',
        '',
      ].join('\n'),
    );
  });

  it('searches a folder for skills, and --json gives name, description and location', () => {
    const root = realpathSync(tempDir());
    skill(root, '.agents/skills/one', 'one', 'First.');
    skill(root, '.agents/skills/two', 'two', 'Second.');
    const r = skillctl(['prompt', '--json', '.agents/skills'], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(json(r), {
      skills: [
        { name: 'one', description: 'First.', location: join(root, '.agents/skills/one/SKILL.md') },
        { name: 'two', description: 'Second.', location: join(root, '.agents/skills/two/SKILL.md') },
      ],
      diagnostics: [],
    });
  });

  it('prints nothing and exits 1 when a skill cannot be read', () => {
    const root = tempDir();
    skill(root, 'good', 'good', 'Good.');
    cpSync(fixture('agent-skills', 'invalid', 'frontmatter-unclosed'), join(root, 'broken'), { recursive: true });
    const r = skillctl(['prompt', 'good', 'broken'], { cwd: root });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /AGENT_SKILL_FRONTMATTER_UNCLOSED/);
  });

  it('warns about two skills with one name, and lists a skill whose name differs from its folder', () => {
    const root = tempDir();
    skill(root, 'x/dup', 'dup', 'First.');
    skill(root, 'y/dup', 'dup', 'Second.');
    skill(root, 'z/folder', 'other-name', 'Mismatch loads, as clients do.');
    const r = skillctl(['prompt', '--json', 'x', 'y', 'z'], { cwd: root });
    assert.equal(r.code, 0);
    const doc = json<{ skills: { name: string }[]; diagnostics: { code: string; file: string }[] }>(r);
    assert.deepEqual(doc.skills.map((s) => s.name), ['dup', 'dup', 'other-name']);
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.file]), [['AGENT_SKILL_NAME_DUPLICATE', 'y/dup/SKILL.md']]);
  });

  it('is a usage error when no SKILL.md is found', () => {
    const r = skillctl(['prompt', 'fixtures/manifests/valid/node-entrypoint']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /NO_INPUT/);
  });
});
