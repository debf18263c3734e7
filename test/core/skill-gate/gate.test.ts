// checkSkillDir / checkSkillSource: a folder or archive validated as its kind, with the identity pack and pin use.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openArchive } from '../../../src/core/bundle/index.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { checkSkillDir, checkSkillSource, kindOfDir, kindOfNames } from '../../../src/core/skill-gate/index.js';
import { fixture } from '../../helpers/paths.js';
import { tgz } from '../../helpers/tar.js';
import { PDF_NOTES, PDF_NOTES_DIR, UNVERSIONED_DIR } from '../../helpers/skill-md.js';
import { tempDir } from '../../helpers/tmp.js';

const codes = (ds: readonly { code: string; severity: string }[]): string[] => ds.filter((d) => d.severity === 'error').map((d) => d.code);

describe('skill source check', () => {
  it('tells the kinds apart: a manifest wins over SKILL.md; neither is no kind', async () => {
    assert.equal(kindOfNames(['SKILL.md', 'skill.yaml']), 'bundle');
    assert.equal(kindOfNames(['skill.json']), 'bundle');
    assert.equal(kindOfNames(['SKILL.md', 'scripts/x.py']), 'agent-skill');
    assert.equal(kindOfNames(['skill.md']), 'agent-skill');
    assert.equal(kindOfNames(['README.md', 'sub/SKILL.md']), undefined);
    assert.equal(await kindOfDir(PDF_NOTES_DIR), 'agent-skill');
    assert.equal(await kindOfDir(fixture('pack', 'golden-bundle')), 'bundle');
    assert.equal(await kindOfDir(fixture('agent-skills', 'valid', 'lowercase-file')), 'agent-skill');
    assert.equal(await kindOfDir(tempDir()), undefined);
  });

  it('a SKILL.md folder with metadata.version: ok, kind agent-skill, its identity', async () => {
    const c = await checkSkillDir(PDF_NOTES_DIR, 'pdf-notes');
    assert.equal(c.ok, true, JSON.stringify(c.diagnostics));
    assert.equal(c.kind, 'agent-skill');
    assert.deepEqual(c.identity, { skill_id: 'pdf-notes', skill_version: '1.2.0', content_digest: PDF_NOTES.content_digest, manifest_digest: PDF_NOTES.manifest_digest });
  });

  it('a manifest bundle: its manifest digests and identity', async () => {
    const c = await checkSkillDir(fixture('pack', 'golden-bundle'), 'golden');
    assert.equal(c.ok, true, JSON.stringify(c.diagnostics));
    assert.equal(c.kind, 'bundle');
    assert.equal(c.identity?.skill_id, 'golden.demo');
    assert.equal(c.identity?.manifest_digest, (c.validation as { digests: { manifest: { computed: string } } }).digests.manifest.computed);
  });

  it('refusals: no version (AGENT_SKILL_VERSION_REQUIRED), an invalid SKILL.md, an empty folder (BUNDLE_NO_MANIFEST)', async () => {
    const unversioned = await checkSkillDir(UNVERSIONED_DIR, 'pdf-notes');
    assert.equal(unversioned.ok, false);
    assert.equal(unversioned.validation.valid, true);
    assert.deepEqual(codes(unversioned.diagnostics), ['AGENT_SKILL_VERSION_REQUIRED']);
    const dir = join(tempDir(), 'demo');
    mkdirSync(dir);
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: other\ndescription: d\nmetadata:\n  version: "1.0.0"\n---\n');
    const mismatch = await checkSkillDir(dir, 'demo');
    assert.equal(mismatch.ok, false);
    assert.equal(mismatch.identity, undefined);
    assert.deepEqual(codes(mismatch.diagnostics), ['AGENT_SKILL_NAME_DIR_MISMATCH']);
    const empty = await checkSkillDir(tempDir(), 'empty');
    assert.equal(empty.kind, undefined);
    assert.deepEqual(codes(empty.diagnostics), ['BUNDLE_NO_MANIFEST']);
  });

  it('strict profile: a client extension field is an error for a SKILL.md folder', async () => {
    const dir = join(tempDir(), 'pdf-notes');
    cpSync(PDF_NOTES_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: pdf-notes\ndescription: d\nmodel: sonnet\nmetadata:\n  version: "1.2.0"\n---\n');
    assert.equal((await checkSkillDir(dir, 'pdf-notes')).ok, true);
    const strict = await checkSkillDir(dir, 'pdf-notes', { profile: 'strict' });
    assert.equal(strict.ok, false);
    assert.deepEqual(codes(strict.diagnostics), ['AGENT_SKILL_EXTENSION_FIELD']);
  });

  it('an archive of a SKILL.md folder has the folder\'s identity; the name-folder rule does not apply to it', async () => {
    const out = tempDir();
    const packed = await packBundle(PDF_NOTES_DIR, out);
    assert.equal(packed.ok, true, JSON.stringify(packed.diagnostics));
    const archive = await openArchive(packed.archive as string, undefined, 'pdf-notes-1.2.0.tgz');
    const c = await checkSkillSource(archive, 'pdf-notes-1.2.0.tgz');
    assert.equal(c.ok, true, JSON.stringify(c.diagnostics));
    assert.equal(c.kind, 'agent-skill');
    assert.deepEqual(c.identity, { skill_id: 'pdf-notes', skill_version: '1.2.0', content_digest: PDF_NOTES.content_digest, manifest_digest: PDF_NOTES.manifest_digest });
  });

  it('an archive of a manifest bundle is checked as a bundle; an archive with neither is BUNDLE_NO_MANIFEST', async () => {
    const out = tempDir();
    const packed = await packBundle(fixture('pack', 'golden-bundle'), out);
    const c = await checkSkillSource(await openArchive(packed.archive as string, undefined, 'g.tgz'), 'g.tgz');
    assert.equal(c.ok, true, JSON.stringify(c.diagnostics));
    assert.equal(c.kind, 'bundle');
    assert.equal(c.identity?.skill_id, 'golden.demo');
    writeFileSync(join(out, 'none.tgz'), tgz([{ name: 'README.md', data: 'x\n' }]));
    const none = await checkSkillSource(await openArchive(join(out, 'none.tgz'), undefined, 'none.tgz'), 'none.tgz');
    assert.equal(none.ok, false);
    assert.equal(none.kind, undefined);
    assert.deepEqual(codes(none.diagnostics), ['BUNDLE_NO_MANIFEST']);
  });
});
