// The test cases of the Agent Skills reference library (agentskills/agentskills, skills-ref/tests:
// test_validator.py, test_parser.py, test_prompt.py), transcribed case by case. Each builds the
// same skill folder in a temporary directory and checks skillctl reaches the same verdict.
//
// skills-ref's semantics are skillctl's `spec` profile with `nameCharset: 'unicode'` (its tests
// accept Chinese and Russian names). Where skillctl deliberately differs, the case says so and
// asserts both behaviours (docs/formats/agent-skills.md, "Where tools disagree").
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  findSkillMd,
  parseSkillMd,
  readAgentSkill,
  renderAvailableSkills,
  validateAgentSkill,
  type AgentSkillOptions,
  type AgentSkillRead,
} from '../../../src/core/agent-skills/index.js';
import { tempDir } from '../../helpers/tmp.js';

const REF: AgentSkillOptions = { profile: 'spec', nameCharset: 'unicode' };

function skillDir(name: string, skillMd?: string, file = 'SKILL.md'): string {
  const dir = join(tempDir(), name);
  mkdirSync(dir);
  if (skillMd !== undefined) writeFileSync(join(dir, file), skillMd);
  return dir;
}

/** skills-ref's `validate()`: the error codes (empty = valid). */
async function errors(dir: string, opts: AgentSkillOptions = REF): Promise<string[]> {
  const r = await validateAgentSkill(dir, opts);
  assert.equal(r.valid, !r.diagnostics.some((d) => d.severity === 'error'));
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
}

function fm(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody\n`;
}

describe('skills-ref test_validator.py', () => {
  it('test_valid_skill', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', '---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n')), []);
  });

  it('test_nonexistent_path: "does not exist"', async () => {
    assert.deepEqual(await errors(join(tempDir(), 'nonexistent')), ['BUNDLE_NOT_FOUND']);
  });

  it('test_not_a_directory: "Not a directory"', async () => {
    const file = join(tempDir(), 'file.txt');
    writeFileSync(file, 'test');
    assert.deepEqual(await errors(file), ['BUNDLE_NOT_FOUND']);
  });

  it('test_missing_skill_md: "Missing required file: SKILL.md"', async () => {
    assert.deepEqual(await errors(skillDir('my-skill')), ['AGENT_SKILL_MD_MISSING']);
  });

  it('test_invalid_name_uppercase: "lowercase"', async () => {
    assert.ok((await errors(skillDir('MySkill', fm('MySkill', 'A test skill')))).includes('AGENT_SKILL_NAME_UPPERCASE'));
  });

  it('test_name_too_long: "exceeds ... character limit"', async () => {
    const long = 'a'.repeat(70);
    assert.ok((await errors(skillDir(long, fm(long, 'A test skill')))).includes('AGENT_SKILL_NAME_TOO_LONG'));
  });

  it('test_name_leading_hyphen: "cannot start or end with a hyphen"', async () => {
    assert.ok((await errors(skillDir('-my-skill', fm('-my-skill', 'A test skill')))).includes('AGENT_SKILL_NAME_HYPHEN_EDGE'));
  });

  it('test_name_consecutive_hyphens: "consecutive hyphens"', async () => {
    assert.ok((await errors(skillDir('my--skill', fm('my--skill', 'A test skill')))).includes('AGENT_SKILL_NAME_DOUBLE_HYPHEN'));
  });

  it('test_name_invalid_characters: "invalid characters"', async () => {
    assert.ok((await errors(skillDir('my_skill', fm('my_skill', 'A test skill')))).includes('AGENT_SKILL_NAME_CHARSET'));
  });

  it('test_name_directory_mismatch: "must match skill name"', async () => {
    assert.ok((await errors(skillDir('wrong-name', fm('correct-name', 'A test skill')))).includes('AGENT_SKILL_NAME_DIR_MISMATCH'));
  });

  it('test_unexpected_fields: "Unexpected fields"', async () => {
    const dir = skillDir('my-skill', fm('my-skill', 'A test skill', 'unknown_field: should not be here\n'));
    assert.deepEqual(await errors(dir), ['AGENT_SKILL_FIELD_UNKNOWN']);
  });

  it('test_valid_with_all_fields', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', fm('my-skill', 'A test skill', 'license: MIT\nmetadata:\n  author: Test\n'))), []);
  });

  it('test_allowed_tools_accepted', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools: Bash(jq:*) Bash(git:*)\n'))), []);
  });

  // A later skills-ref revision also accepts YAML lists for allowed-tools. The specification
  // defines a space-separated string, so the spec profile refuses a list; the default profile
  // accepts it with a warning, as that revision does.
  for (const [name, extra] of [
    ['test_allowed_tools_inline_list_accepted', 'allowed-tools: [Read, Write, Edit, Bash]\n'],
    ['test_allowed_tools_block_list_accepted', 'allowed-tools:\n  - Read\n  - Bash\n  - Grep\n'],
  ] as const) {
    it(`${name} (list form: an error under spec, accepted by default)`, async () => {
      const dir = skillDir('my-skill', fm('my-skill', 'A test skill', extra));
      assert.deepEqual(await errors(dir), ['AGENT_SKILL_ALLOWED_TOOLS_LIST']);
      assert.deepEqual(await errors(dir, { ...REF, profile: 'default' }), []);
    });
  }

  it('test_allowed_tools_list_items_must_be_strings: "list items must all be strings"', async () => {
    const dir = skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools:\n  - Read\n  - 123\n'));
    assert.deepEqual(await errors(dir, { ...REF, profile: 'default' }), ['AGENT_SKILL_FIELD_TYPE']);
  });

  it('test_allowed_tools_invalid_scalar_type_rejected: "must be either a string or a list of strings"', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools: 123\n'))), ['AGENT_SKILL_FIELD_TYPE']);
  });

  // Unicode names: valid for skills-ref (and skillctl --name-charset unicode); the specification's
  // text lists a-z, 0-9 and -, which is skillctl's default.
  for (const [test, name] of [
    ['test_i18n_chinese_name', '技能'],
    ['test_i18n_russian_name_with_hyphens', 'мой-навык'],
    ['test_i18n_russian_lowercase_valid', 'навык'],
  ] as const) {
    it(`${test} (valid with unicode names; NAME_CHARSET with the default ascii set)`, async () => {
      const dir = skillDir(name, fm(name, 'A skill with a non-Latin name'));
      assert.deepEqual(await errors(dir), []);
      assert.deepEqual(await errors(dir, { profile: 'spec' }), ['AGENT_SKILL_NAME_CHARSET']);
    });
  }

  it('test_i18n_russian_uppercase_rejected: "lowercase"', async () => {
    assert.ok((await errors(skillDir('НАВЫК', fm('НАВЫК', 'A skill with Russian uppercase name')))).includes('AGENT_SKILL_NAME_UPPERCASE'));
  });

  it('test_description_too_long: "exceeds ... 1024"', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', fm('my-skill', 'x'.repeat(1100)))), ['AGENT_SKILL_DESCRIPTION_TOO_LONG']);
  });

  it('test_valid_compatibility', async () => {
    assert.deepEqual(await errors(skillDir('my-skill', fm('my-skill', 'A test skill', 'compatibility: Requires Python 3.11+\n'))), []);
  });

  it('test_compatibility_too_long: "exceeds ... 500"', async () => {
    const dir = skillDir('my-skill', fm('my-skill', 'A test skill', `compatibility: ${'x'.repeat(550)}\n`));
    assert.deepEqual(await errors(dir), ['AGENT_SKILL_COMPATIBILITY_TOO_LONG']);
  });

  it('test_nfkc_normalization: decomposed name matches a composed folder name', async () => {
    const dir = skillDir('caf\u00e9', fm('cafe\u0301', 'A test skill'));
    assert.deepEqual(await errors(dir), []);
  });
});

describe('skills-ref test_parser.py', () => {
  const parse = (text: string): ReturnType<typeof parseSkillMd> => parseSkillMd(Buffer.from(text, 'utf8'));
  const codes = (text: string): string[] => parse(text).diagnostics.map((d) => d.code);
  const read = (dir: string): Promise<AgentSkillRead> => readAgentSkill(dir);

  it('test_valid_frontmatter', () => {
    const r = parse('---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.\n');
    assert.equal(r.frontmatter?.name, 'my-skill');
    assert.equal(r.frontmatter?.description, 'A test skill');
    assert.ok(r.body.includes('# My Skill'));
  });

  it('test_missing_frontmatter: "must start with YAML frontmatter"', () => {
    assert.deepEqual(codes('# No frontmatter here'), ['AGENT_SKILL_FRONTMATTER_MISSING']);
  });

  it('test_unclosed_frontmatter: "not properly closed"', () => {
    assert.deepEqual(codes('---\nname: my-skill\ndescription: A test skill\n'), ['AGENT_SKILL_FRONTMATTER_UNCLOSED']);
  });

  it('test_invalid_yaml: "Invalid YAML"', () => {
    assert.deepEqual(codes('---\nname: [invalid\ndescription: broken\n---\nBody here\n'), ['AGENT_SKILL_YAML_INVALID']);
  });

  it('test_non_dict_frontmatter: "must be a YAML mapping"', () => {
    assert.deepEqual(codes('---\n- just\n- a\n- list\n---\nBody\n'), ['AGENT_SKILL_FRONTMATTER_NOT_MAPPING']);
  });

  it('test_read_valid_skill', async () => {
    const r = await read(skillDir('my-skill', '---\nname: my-skill\ndescription: A test skill\nlicense: MIT\n---\n# My Skill\n'));
    assert.deepEqual(r.properties, { name: 'my-skill', description: 'A test skill', license: 'MIT' });
  });

  it('test_read_with_metadata: version 1.0 reads as "1.0"', async () => {
    const r = await read(skillDir('my-skill', fm('my-skill', 'A test skill', 'metadata:\n  author: Test Author\n  version: 1.0\n')));
    assert.deepEqual(r.properties?.metadata, { author: 'Test Author', version: '1.0' });
  });

  it('test_missing_skill_md: "SKILL.md not found"', async () => {
    const r = await read(tempDir());
    assert.equal(r.properties, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['AGENT_SKILL_MD_MISSING']);
  });

  it('test_missing_name: "Missing required field.*name"', async () => {
    const r = await read(skillDir('my-skill', '---\ndescription: A test skill\n---\nBody\n'));
    assert.equal(r.properties, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['AGENT_SKILL_FIELD_MISSING']);
    assert.match(r.diagnostics[0]?.message ?? '', /name/);
  });

  it('test_missing_description: "Missing required field.*description"', async () => {
    const r = await read(skillDir('my-skill', '---\nname: my-skill\n---\nBody\n'));
    assert.equal(r.properties, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['AGENT_SKILL_FIELD_MISSING']);
    assert.match(r.diagnostics[0]?.message ?? '', /description/);
  });

  it('test_find_skill_md_prefers_uppercase', async () => {
    const dir = skillDir('my-skill', 'uppercase');
    writeFileSync(join(dir, 'skill.md'), 'lowercase');
    const found = await findSkillMd(dir);
    assert.ok(!('diagnostic' in found));
    assert.equal(found.name, 'SKILL.md');
  });

  it('test_find_skill_md_accepts_lowercase', async () => {
    const found = await findSkillMd(skillDir('my-skill', 'lowercase', 'skill.md'));
    assert.ok(!('diagnostic' in found));
    assert.equal(found.name.toLowerCase(), 'skill.md');
  });

  it('test_find_skill_md_returns_none_when_missing', async () => {
    const found = await findSkillMd(skillDir('my-skill'));
    assert.ok('diagnostic' in found);
    assert.equal(found.diagnostic.code, 'AGENT_SKILL_MD_MISSING');
  });

  it('test_read_properties_with_lowercase_skill_md', async () => {
    const r = await read(skillDir('my-skill', '---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n', 'skill.md'));
    assert.equal(r.properties?.name, 'my-skill');
    assert.equal(r.properties?.description, 'A test skill');
  });

  it('test_read_with_allowed_tools: kept under the key allowed-tools', async () => {
    const r = await read(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools: Bash(jq:*) Bash(git:*)\n')));
    assert.equal(r.properties?.['allowed-tools'], 'Bash(jq:*) Bash(git:*)');
  });

  it('test_read_with_allowed_tools_inline_list: joined with spaces', async () => {
    const r = await read(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools: [Read, Write, Bash]\n')));
    assert.equal(r.properties?.['allowed-tools'], 'Read Write Bash');
  });

  it('test_read_with_allowed_tools_block_list: joined with spaces', async () => {
    const r = await read(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools:\n  - Read\n  - Bash\n  - Grep\n')));
    assert.equal(r.properties?.['allowed-tools'], 'Read Bash Grep');
  });

  it('test_read_with_allowed_tools_invalid_type: "must be either a string or a list of strings"', async () => {
    const r = await read(skillDir('my-skill', fm('my-skill', 'A test skill', 'allowed-tools: 123\n')));
    assert.equal(r.properties, undefined);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [['AGENT_SKILL_FIELD_TYPE', '/allowed-tools']]);
  });
});

describe('skills-ref test_prompt.py', () => {
  async function toPrompt(dirs: string[]): Promise<string> {
    const skills = [];
    for (const d of dirs) {
      const r = await readAgentSkill(d);
      assert.ok(r.properties && r.location, JSON.stringify(r.diagnostics));
      skills.push({ name: r.properties.name, description: r.properties.description, location: r.location });
    }
    return renderAvailableSkills(skills);
  }

  it('test_empty_list', async () => {
    assert.equal(await toPrompt([]), '<available_skills>\n</available_skills>');
  });

  it('test_single_skill', async () => {
    const dir = skillDir('my-skill', '---\nname: my-skill\ndescription: A test skill\n---\nBody\n');
    const result = await toPrompt([dir]);
    assert.ok(result.includes('<available_skills>') && result.includes('</available_skills>'));
    assert.ok(result.includes('<name>\nmy-skill\n</name>'));
    assert.ok(result.includes('<description>\nA test skill\n</description>'));
    assert.ok(result.includes('<location>') && result.includes('SKILL.md'));
    assert.equal(
      result,
      `<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\nA test skill\n</description>\n<location>\n${join(realpathSync(dir), 'SKILL.md')}\n</location>\n</skill>\n</available_skills>`,
    );
  });

  it('test_multiple_skills', async () => {
    const root = tempDir();
    const dirs = ['skill-a', 'skill-b'].map((n, i) => {
      const d = join(root, n);
      mkdirSync(d);
      writeFileSync(join(d, 'SKILL.md'), fm(n, i === 0 ? 'First skill' : 'Second skill'));
      return d;
    });
    const result = await toPrompt(dirs);
    assert.equal(result.split('<skill>').length - 1, 2);
    assert.equal(result.split('</skill>').length - 1, 2);
    assert.ok(result.includes('skill-a') && result.includes('skill-b'));
  });

  it('test_special_characters_escaped', async () => {
    const result = await toPrompt([skillDir('special-skill', fm('special-skill', 'Use <foo> & <bar> tags'))]);
    assert.ok(result.includes('&lt;foo&gt;') && result.includes('&amp;') && result.includes('&lt;bar&gt;'));
    assert.ok(!result.includes('<foo>') && !result.includes('<bar>'));
  });

  it('test_special_characters_escaped_in_location (the name need not match the folder to be listed)', async () => {
    const result = await toPrompt([skillDir('special-location-&-<>', fm('special-location', 'Test skill with special characters in path'))]);
    assert.ok(result.includes('&amp;') && result.includes('&lt;') && result.includes('&gt;'));
    assert.ok(!result.includes('special-location-&-<>'));
  });
});
