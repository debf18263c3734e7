import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixDigests, validateManifest } from '../../../src/core/manifest/index.js';
import { canonicalManifest, withDigest } from '../../helpers/manifests.js';

describe('fixDigests', () => {
  it('inserts a missing manifest_digest into JSON as the first member, keeping the rest byte for byte', async () => {
    const m = canonicalManifest();
    delete m.manifest_digest;
    const text = JSON.stringify(m, null, 2);
    const r = await validateManifest(Buffer.from(text), 'json', { file: 'skill.json' });
    const fix = fixDigests(r);
    assert.deepEqual(fix.changed, ['manifest_digest']);
    assert.ok(fix.text?.startsWith('{\n  "manifest_digest": "sha256:'));
    assert.equal(fix.text?.replace(/\n {2}"manifest_digest": "sha256:[0-9a-f]{64}",/, ''), text);
    const again = await validateManifest(Buffer.from(fix.text ?? ''), 'json', { file: 'skill.json' });
    assert.equal(again.valid, true, JSON.stringify(again.diagnostics));
  });

  it('keeps the quoting style of the value it replaces', async () => {
    const yaml = `skill_contract_version: skill.contract.v1\nmanifest_digest: 'sha256:${'0'.repeat(64)}' # pinned\n`;
    const r = await validateManifest(Buffer.from(yaml), 'yaml', { file: 'skill.yaml' });
    const fix = fixDigests(r);
    assert.match(fix.text ?? '', /^manifest_digest: 'sha256:[0-9a-f]{64}' # pinned$/m);
  });

  it('changes nothing when the digests are already right', async () => {
    const text = JSON.stringify(withDigest(canonicalManifest()));
    const r = await validateManifest(Buffer.from(text), 'json', { file: 'skill.json' });
    assert.deepEqual(fixDigests(r), { changed: [] });
  });

  it('refuses to fix a document that does not parse', async () => {
    const r = await validateManifest(Buffer.from('a: [1,'), 'yaml', { file: 'skill.yaml' });
    assert.equal(fixDigests(r).text, undefined);
    assert.match(fixDigests(r).reason ?? '', /does not parse/);
  });
});
