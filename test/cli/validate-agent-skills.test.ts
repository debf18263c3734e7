import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

interface SkillResult {
  kind?: string;
  file: string;
  valid: boolean;
  profile?: string;
  diagnostics: { code: string; severity: string; line?: number }[];
}

describe('skillctl validate on Agent Skills folders', () => {
  it('recognises a folder with SKILL.md and reports every finding with code, severity and line', () => {
    const r = skillctl(['validate', 'fixtures/agent-skills/invalid/yaml-syntax-error']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /SKILL\.md\n\s+4:\d+\s+error\s+AGENT_SKILL_YAML_INVALID/);
    assert.match(r.stdout, /1 SKILL\.md folder checked: 1 invalid/);
  });

  it('searches a directory for both kinds, and a SKILL.md path names its folder', () => {
    const r = skillctl(['validate', '--json', 'fixtures/agent-skills/valid', 'fixtures/manifests/valid/node-entrypoint', 'fixtures/agent-skills/invalid/Name-Uppercase/SKILL.md']);
    const doc = json<{ results: SkillResult[] }>(r).results;
    assert.equal(doc.filter((d) => d.kind === 'agent-skill').length, 13);
    assert.equal(doc.filter((d) => d.kind === undefined).length, 1);
    assert.ok(doc.some((d) => d.file === 'fixtures/agent-skills/valid/lowercase-file/skill.md'));
    assert.deepEqual(doc.at(-1)?.diagnostics.map((d) => d.code), ['AGENT_SKILL_NAME_UPPERCASE']);
    assert.equal(r.code, 1);
  });

  it('--profile spec fails extension fields, default warns, --strict fails platform rules too', () => {
    const dir = 'fixtures/agent-skills/valid/code-extension-fields';
    assert.equal(skillctl(['validate', dir]).code, 0);
    assert.equal(skillctl(['validate', '--profile', 'spec', dir]).code, 1);
    assert.equal(skillctl(['validate', '--strict', dir]).code, 1);
    const reserved = 'fixtures/agent-skills/valid/claude-helper';
    assert.equal(skillctl(['validate', '--profile', 'spec', reserved]).code, 0);
    const strict = json<{ results: SkillResult[] }>(skillctl(['validate', '--json', '--strict', reserved])).results;
    assert.equal(strict[0]?.profile, 'strict');
    assert.deepEqual(strict[0]?.diagnostics.map((d) => [d.code, d.severity]), [['AGENT_SKILL_NAME_RESERVED', 'error']]);
  });

  it('--strict and --profile together are a usage error', () => {
    assert.equal(skillctl(['validate', '--strict', '--profile', 'spec', 'fixtures/agent-skills/valid']).code, 2);
  });

  it('--name-charset unicode accepts names in any script; ascii (the default) refuses them', () => {
    const cwd = tempDir();
    cpSync(fixture('agent-skills', 'valid', 'minimal-skill'), join(cwd, 'навык'), { recursive: true });
    writeFileSync(join(cwd, 'навык', 'SKILL.md'), '---\nname: навык\ndescription: A skill with a Russian name.\n---\n');
    assert.equal(skillctl(['validate', 'навык'], { cwd }).code, 1);
    assert.equal(skillctl(['validate', '--name-charset', 'unicode', 'навык'], { cwd }).code, 0);
  });

  it('checks SKILL.md folders in worker threads too (large runs)', () => {
    const cwd = tempDir();
    for (let i = 0; i < 210; i++) cpSync(fixture('agent-skills', 'valid', 'claude-helper'), join(cwd, 'skills', `s${i}`, 'claude-helper'), { recursive: true });
    const r = skillctl(['validate', '--json', '--strict', 'skills'], { cwd, env: { SKILLCTL_THREADS: '2' } });
    const doc = json<{ results: SkillResult[] }>(r).results;
    assert.equal(doc.length, 210);
    assert.ok(doc.every((d) => d.profile === 'strict' && d.diagnostics.length === 1 && d.diagnostics[0]?.severity === 'error'));
  });
});
