import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateAgentSkill } from '../../src/core/agent-skills/index.js';
import { validateBundle } from '../../src/core/manifest/index.js';
import { json, skillctl } from '../helpers/cli.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

function copy(src: string, name: string): { cwd: string; dir: string } {
  const cwd = tempDir();
  const dir = join(cwd, name);
  cpSync(src, dir, { recursive: true });
  return { cwd, dir };
}

const VERSIONS = ['--python-version', '3.11.7', '--node-version', '20.19.0', '--shell-version', 'bash@5.2'];

describe('skillctl convert', () => {
  it('writes a skill.yaml for a SKILL.md folder that passes validate, with empty permissions', async () => {
    const { cwd, dir } = copy(fixture('agent-skills', 'valid', 'pdf-tools'), 'pdf-tools');
    const r = skillctl(['convert', 'pdf-tools', '--json', ...VERSIONS], { cwd });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<{ written: string; skill_id: string; entrypoints: { entrypoint_id: string; command: string[] }[] }>(r);
    assert.equal(doc.written, 'pdf-tools/skill.yaml');
    assert.deepEqual(doc.entrypoints.map((e) => [e.entrypoint_id, e.command]), [['extract', ['python3', 'scripts/extract.py']]]);
    const v = skillctl(['validate', 'pdf-tools'], { cwd });
    assert.equal(v.code, 0, v.stdout);
    assert.match(v.stdout, /1 manifest and 1 SKILL\.md folder checked: all valid/);
    const m = await validateBundle(dir);
    assert.deepEqual(m.manifest?.entrypoints[0]?.requested_permissions, {});
  });

  it('refuses to overwrite without --force (exit 2, file unchanged), and replaces it with --force', () => {
    const { cwd, dir } = copy(fixture('agent-skills', 'valid', 'pdf-tools'), 'pdf-tools');
    writeFileSync(join(dir, 'skill.yaml'), 'mine: true\n');
    const r = skillctl(['convert', 'pdf-tools', '--to', 'manifest', ...VERSIONS], { cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /OUTPUT_EXISTS/);
    assert.equal(readFileSync(join(dir, 'skill.yaml'), 'utf8'), 'mine: true\n');
    const forced = skillctl(['convert', 'pdf-tools', '--to', 'manifest', '--force', ...VERSIONS], { cwd });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(skillctl(['validate', 'pdf-tools'], { cwd }).code, 0);
  });

  it('needs --to when the folder has both formats, and refuses a folder with neither', () => {
    const { cwd, dir } = copy(fixture('agent-skills', 'valid', 'pdf-tools'), 'pdf-tools');
    writeFileSync(join(dir, 'skill.yaml'), 'x: 1\n');
    const both = skillctl(['convert', 'pdf-tools'], { cwd });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /USAGE[\s\S]*--to/);
    const none = skillctl(['convert', '--json', '.'], { cwd: tempDir() });
    assert.equal(none.code, 2);
    assert.equal((json(none) as { error: { code: string } }).error.code, 'NO_INPUT');
  });

  it('lists the findings and writes nothing for an invalid SKILL.md or one without scripts', () => {
    const bad = copy(fixture('agent-skills', 'invalid', 'name-dir-mismatch'), 'name-dir-mismatch');
    const r = skillctl(['convert', '--json', 'name-dir-mismatch'], { cwd: bad.cwd });
    assert.equal(r.code, 1);
    assert.deepEqual((json(r) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code), ['AGENT_SKILL_NAME_DIR_MISMATCH']);
    const plain = copy(fixture('agent-skills', 'valid', 'minimal-skill'), 'minimal-skill');
    const n = skillctl(['convert', 'minimal-skill'], { cwd: plain.cwd });
    assert.equal(n.code, 1);
    assert.match(n.stderr, /AGENT_SKILL_CONVERT_NO_SCRIPTS/);
  });

  it('writes a SKILL.md for a skill.yaml bundle and updates the manifest digests, so both validate', async () => {
    const { cwd, dir } = copy(fixture('manifests', 'valid', 'node-entrypoint'), 'node-entrypoint');
    const before = await validateBundle(dir);
    const r = skillctl(['convert', 'node-entrypoint', '--json'], { cwd });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<{ written: string; name: string; content_digest: string }>(r);
    assert.equal(doc.written, 'node-entrypoint/SKILL.md');
    assert.equal(doc.name, 'node-entrypoint');
    const after = await validateBundle(dir);
    assert.equal(after.valid, true, JSON.stringify(after.diagnostics));
    assert.notEqual(after.digests.content.declared, before.digests.content.declared);
    assert.equal((await validateAgentSkill(dir, { profile: 'strict' })).valid, true);
    const again = skillctl(['convert', 'node-entrypoint', '--to', 'skill-md'], { cwd });
    assert.equal(again.code, 2, 'an existing SKILL.md is not replaced without --force');
  });

  it('refuses a folder name that cannot be a skill name, pointing at --name', () => {
    const { cwd } = copy(fixture('manifests', 'valid', 'node-entrypoint'), 'Node_Entrypoint');
    const r = skillctl(['convert', 'Node_Entrypoint'], { cwd });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /AGENT_SKILL_CONVERT_NAME_INVALID[\s\S]*--name/);
  });
});
