import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkSkillMd, splitTools, validateAgentSkill, type CheckSkillMdOptions } from '../../../src/core/agent-skills/index.js';
import type { BundleFile } from '../../../src/core/bundle/index.js';
import { tempDir } from '../../helpers/tmp.js';

function check(text: string, opts: Partial<CheckSkillMdOptions> = {}): ReturnType<typeof checkSkillMd> {
  return checkSkillMd(Buffer.from(text, 'utf8'), { file: 'SKILL.md', dirName: 'my-skill', ...opts });
}

function codes(r: ReturnType<typeof checkSkillMd>): string[] {
  return r.diagnostics.map((d) => d.code);
}

const OK = '---\nname: my-skill\ndescription: Does a thing. Use when asked.\n';

describe('SKILL.md frontmatter', () => {
  it('reports YAML errors with SKILL.md line numbers (frontmatter starts on line 2)', () => {
    const r = check(`${OK}metadata: [unclosed\n---\nbody\n`);
    const d = r.diagnostics.find((x) => x.code === 'AGENT_SKILL_YAML_INVALID');
    assert.ok(d);
    assert.ok((d.line ?? 0) >= 4, `line ${d.line}`);
    assert.equal(d.file, 'SKILL.md');
  });

  it('puts findings on the line and column of the field, and unknown fields on their key', () => {
    const r = check(`${OK}licence: MIT\n---\n`);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.pointer, d.line, d.column]),
      [['AGENT_SKILL_FIELD_UNKNOWN', '/licence', 4, 1]],
    );
    assert.match(r.diagnostics[0]?.hint ?? '', /license/);
    const n = check('---\nname: My-Skill\ndescription: x\n---\n', { dirName: 'My-Skill' });
    assert.deepEqual(n.diagnostics.map((d) => [d.code, d.line, d.column]), [['AGENT_SKILL_NAME_UPPERCASE', 2, 7]]);
  });

  it('accepts CRLF line endings and a UTF-8 byte order mark', () => {
    const r = check(`\ufeff${OK}---\nbody\n`.replace(/\n/g, '\r\n'));
    assert.deepEqual(codes(r), []);
    assert.equal(r.properties?.description, 'Does a thing. Use when asked.');
  });

  it('closes the frontmatter only at a line that is exactly ---, not at --- inside a value', () => {
    const r = check('---\nname: my-skill\ndescription: "before --- after"\n---\n# Body\n');
    assert.deepEqual(codes(r), []);
    assert.equal(r.properties?.description, 'before --- after');
    assert.equal(r.document?.bodyLine, 5);
  });

  it('hints to quote a value that contains ": "', () => {
    const r = check('---\nname: my-skill\ndescription: Use when: asked\n---\n');
    assert.equal(r.diagnostics[0]?.code, 'AGENT_SKILL_YAML_INVALID');
    assert.match(r.diagnostics[0]?.hint ?? '', /quoted/);
  });

  it('refuses an empty frontmatter as not a mapping', () => {
    assert.deepEqual(codes(check('---\n---\nbody\n')), ['AGENT_SKILL_FRONTMATTER_NOT_MAPPING']);
  });

  it('refuses a SKILL.md over 4 MiB before parsing it', () => {
    const big = OK + '---\n' + 'x'.repeat(4 * 1024 * 1024);
    assert.deepEqual(codes(check(big)), ['MANIFEST_TOO_LARGE']);
  });
});

describe('SKILL.md field checks', () => {
  it('reads metadata scalars as their source text, so version: 1.0 is "1.0" as in the reference', () => {
    const r = check(`${OK}metadata:\n  version: 1.0\n  author: Test Author\n---\n`);
    assert.deepEqual(r.properties?.metadata, { version: '1.0', author: 'Test Author' });
    assert.deepEqual(codes(r), ['AGENT_SKILL_METADATA_NOT_STRING']);
    assert.equal(r.diagnostics[0]?.pointer, '/metadata/version');
    assert.match(r.diagnostics[0]?.hint ?? '', /version: "1\.0"/);
  });

  it('splits allowed-tools on spaces outside parentheses', () => {
    assert.deepEqual(splitTools('Bash(git add:*) Read  Grep'), { tools: ['Bash(git add:*)', 'Read', 'Grep'], balanced: true });
    assert.equal(splitTools('Bash(git:* Read').balanced, false);
    assert.equal(splitTools('Read) Bash(').balanced, false);
    assert.deepEqual(codes(check(`${OK}allowed-tools: "   "\n---\n`)), ['AGENT_SKILL_ALLOWED_TOOLS_INVALID']);
  });

  it('checks each item of a list-form allowed-tools', () => {
    const r = check(`${OK}allowed-tools:\n  - Read\n  - 123\n---\n`);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [
      ['AGENT_SKILL_ALLOWED_TOOLS_LIST', '/allowed-tools'],
      ['AGENT_SKILL_FIELD_TYPE', '/allowed-tools/1'],
    ]);
  });

  it('reports every problem of a name at once', () => {
    const r = check('---\nname: -Bad__Name-\ndescription: x\n---\n', { dirName: 'other' });
    assert.deepEqual(codes(r).sort(), [
      'AGENT_SKILL_NAME_CHARSET',
      'AGENT_SKILL_NAME_DIR_MISMATCH',
      'AGENT_SKILL_NAME_HYPHEN_EDGE',
      'AGENT_SKILL_NAME_UPPERCASE',
    ]);
  });

  it('makes the name character set an explicit option: ascii by default, unicode as skills-ref', () => {
    const text = '---\nname: мой-навык\ndescription: x\n---\n';
    assert.deepEqual(codes(check(text, { dirName: 'мой-навык' })), ['AGENT_SKILL_NAME_CHARSET']);
    assert.deepEqual(codes(check(text, { dirName: 'мой-навык', nameCharset: 'unicode' })), []);
    // Symbols are not letters in either set.
    assert.deepEqual(codes(check('---\nname: a★b\ndescription: x\n---\n', { dirName: 'a★b', nameCharset: 'unicode' })), ['AGENT_SKILL_NAME_CHARSET']);
  });

  it('counts lengths in code points, not UTF-16 units', () => {
    const emoji = '😀'.repeat(1024);
    assert.deepEqual(codes(check(`---\nname: my-skill\ndescription: ${emoji}\n---\n`)), []);
    assert.deepEqual(codes(check(`---\nname: my-skill\ndescription: ${emoji}x\n---\n`)), ['AGENT_SKILL_DESCRIPTION_TOO_LONG']);
  });

  it('skips folder-name, link and size checks when no folder is given', () => {
    const r = checkSkillMd(Buffer.from('---\nname: any-name\ndescription: x\n---\n[gone](nowhere.md)\n'), { file: 'SKILL.md' });
    assert.deepEqual(codes(r), []);
  });
});

describe('SKILL.md body and folder checks', () => {
  const files = (paths: string[]): BundleFile[] => paths.map((path) => ({ path, size: 1, mode: '0644' }));

  it('reports broken relative links on their line, ignoring URLs, anchors and code', () => {
    const body = [
      '# Title', // line 5
      '[ok](references/A.md) [dir](references) [web](https://example.com) [top](#title) [mail](mailto:a@b.c)',
      '`[code](inline.md)`',
      '```',
      '[fenced](fenced.md)',
      '```',
      '[missing](references/B.md#part) ![img](assets/logo%20big.png)',
      '[escape](../../etc/passwd)',
    ].join('\n');
    const r = check(`${OK}---\n${body}\n`, { files: files(['SKILL.md', 'references/A.md', 'assets/logo big.png']) });
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.line]), [
      ['AGENT_SKILL_LINK_BROKEN', 11],
      ['AGENT_SKILL_LINK_BROKEN', 12],
    ]);
  });

  it('flags more than 512 files and more than 16 MiB, on the folder', () => {
    const many = files(Array.from({ length: 513 }, (_, i) => `assets/f${i}.txt`));
    assert.deepEqual(codes(check(`${OK}---\n`, { files: many, dirLabel: 'my-skill' })), ['AGENT_SKILL_TOO_MANY_FILES']);
    const big: BundleFile[] = [{ path: 'assets/big.bin', size: 16 * 1024 * 1024 + 1, mode: '0644' }];
    const r = check(`${OK}---\n`, { files: big, dirLabel: 'my-skill', profile: 'strict' });
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity, d.file]), [['AGENT_SKILL_TOO_LARGE', 'error', 'my-skill']]);
    assert.deepEqual(codes(check(`${OK}---\n`, { files: big, profile: 'spec' })), []);
  });

  it('refuses a symlink inside the skill folder (it could point anywhere)', async () => {
    const root = tempDir();
    const dir = join(root, 'my-skill');
    mkdirSync(dir);
    writeFileSync(join(dir, 'SKILL.md'), `${OK}---\n`);
    symlinkSync('/etc/passwd', join(dir, 'passwd'));
    const r = await validateAgentSkill(dir, { label: 'my-skill' });
    assert.equal(r.valid, false);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.file]), [['BUNDLE_SYMLINK', 'my-skill/passwd']]);
  });

  it('reports a path that is missing or not a directory as BUNDLE_NOT_FOUND', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'file.txt'), 'x');
    for (const p of [join(root, 'nope'), join(root, 'file.txt')]) {
      const r = await validateAgentSkill(p);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['BUNDLE_NOT_FOUND']);
    }
  });
});

describe('content_digest of a SKILL.md folder', () => {
  it('is the bundle recipe over every file, SKILL.md included, a root skill.yaml excluded', async () => {
    const { computeContent, dirSource } = await import('../../../src/core/bundle/index.js');
    const root = tempDir();
    const dir = join(root, 'my-skill');
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), `${OK}---\n`);
    writeFileSync(join(dir, 'scripts', 'run.py'), 'print(1)\n');
    const before = await validateAgentSkill(dir);
    assert.equal(before.contentDigest, (await computeContent(dirSource(dir))).digest);
    writeFileSync(join(dir, 'skill.yaml'), 'x: 1\n');
    assert.equal((await validateAgentSkill(dir)).contentDigest, before.contentDigest);
    writeFileSync(join(dir, 'SKILL.md'), `${OK}---\nchanged\n`);
    assert.notEqual((await validateAgentSkill(dir)).contentDigest, before.contentDigest);
  });
});
