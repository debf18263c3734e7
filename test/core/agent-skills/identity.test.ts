// The identity and derived manifest digest of an Agent Skills folder (docs/formats/digests.md#agent-skills-folders).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentSkillIdentity, agentSkillManifestDigest, validateAgentSkill } from '../../../src/core/agent-skills/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { fixture } from '../../helpers/paths.js';
import { PDF_NOTES, PDF_NOTES_DIR, UNVERSIONED_DIR } from '../../helpers/skill-md.js';
import { tempDir } from '../../helpers/tmp.js';

function skillDir(name: string, frontmatter: string): string {
  const dir = join(tempDir(), name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'SKILL.md'), `---\n${frontmatter}---\n# Skill\n\nInstructions.\n`);
  return dir;
}

describe('Agent Skills identity', () => {
  it('the derived manifest digest is sha256 of the RFC 8785 text of {content_digest, kind, skill_id, skill_version}', () => {
    const content = PDF_NOTES.content_digest;
    const text = `{"content_digest":"${content}","kind":"agent-skill","skill_id":"pdf-notes","skill_version":"1.2.0"}`;
    assert.equal(agentSkillManifestDigest('pdf-notes', '1.2.0', content), sha256(Buffer.from(text, 'utf8')));
    assert.equal(agentSkillManifestDigest('pdf-notes', '1.2.0', content), PDF_NOTES.manifest_digest);
    assert.notEqual(agentSkillManifestDigest('pdf-notes', '1.2.1', content), PDF_NOTES.manifest_digest);
    assert.notEqual(agentSkillManifestDigest('pdf-notez', '1.2.0', content), PDF_NOTES.manifest_digest);
  });

  it('a versioned folder: name, metadata.version, its content_digest and the derived digest', async () => {
    const v = await validateAgentSkill(PDF_NOTES_DIR);
    const r = agentSkillIdentity(v);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.identity, { skill_id: 'pdf-notes', skill_version: '1.2.0', content_digest: PDF_NOTES.content_digest, manifest_digest: PDF_NOTES.manifest_digest });
  });

  it('no metadata.version: AGENT_SKILL_VERSION_REQUIRED at /metadata, with its line', async () => {
    const v = await validateAgentSkill(UNVERSIONED_DIR);
    assert.equal(v.valid, true);
    const r = agentSkillIdentity(v);
    assert.equal(r.identity, undefined);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, d.pointer, d.line]),
      [['AGENT_SKILL_VERSION_REQUIRED', 'error', '/metadata', 5]],
    );
  });

  it('no metadata at all: AGENT_SKILL_VERSION_REQUIRED at /metadata', async () => {
    const r = agentSkillIdentity(await validateAgentSkill(skillDir('demo', 'name: demo\ndescription: Does one thing. Use when asked.\n')));
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [['AGENT_SKILL_VERSION_REQUIRED', '/metadata']]);
  });

  it('a version that is not semantic (unquoted 1.0, "v1"): AGENT_SKILL_VERSION_REQUIRED at /metadata/version', async () => {
    const unquoted = agentSkillIdentity(await validateAgentSkill(fixture('agent-skills', 'valid', 'metadata-unquoted')));
    assert.deepEqual(unquoted.diagnostics.map((d) => [d.code, d.pointer, d.line]), [['AGENT_SKILL_VERSION_REQUIRED', '/metadata/version', 5]]);
    const v1 = agentSkillIdentity(await validateAgentSkill(skillDir('demo', 'name: demo\ndescription: Does one thing. Use when asked.\nmetadata:\n  version: "v1"\n')));
    assert.deepEqual(v1.diagnostics.map((d) => [d.code, d.pointer]), [['AGENT_SKILL_VERSION_REQUIRED', '/metadata/version']]);
  });

  it('a Unicode name valid under --name-charset unicode cannot name a pin: AGENT_SKILL_NAME_CHARSET', async () => {
    const dir = skillDir('café', 'name: café\ndescription: Does one thing. Use when asked.\nmetadata:\n  version: "1.0.0"\n');
    const v = await validateAgentSkill(dir, { nameCharset: 'unicode' });
    assert.equal(v.valid, true, JSON.stringify(v.diagnostics));
    const r = agentSkillIdentity(v);
    assert.equal(r.identity, undefined);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [['AGENT_SKILL_NAME_CHARSET', '/name']]);
  });

  it('an invalid folder has no identity and adds no finding of its own', async () => {
    const v = await validateAgentSkill(skillDir('demo', 'name: Demo\ndescription: Does one thing.\nmetadata:\n  version: "1.0.0"\n'));
    assert.equal(v.valid, false);
    assert.deepEqual(agentSkillIdentity(v), { diagnostics: [] });
  });
});
