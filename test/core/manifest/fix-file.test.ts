// fixManifestFile: validate --fix on disk, then the file validated again.
import assert from 'node:assert/strict';
import { chmodSync, cpSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fixManifestFile, validateBundle } from '../../../src/core/manifest/index.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

function copy(name: string): string {
  const cwd = tempDir();
  cpSync(fixture('manifests', 'invalid', name), join(cwd, name), { recursive: true });
  return cwd;
}

describe('fixManifestFile', () => {
  it('writes the stale digest back and reports the bundle as it now is', async () => {
    const cwd = copy('content-digest-mismatch');
    const before = await validateBundle(join(cwd, 'content-digest-mismatch'), 'content-digest-mismatch');
    assert.ok(before.diagnostics.some((d) => d.code === 'CONTENT_DIGEST_MISMATCH'));
    const r = await fixManifestFile(cwd, before);
    assert.deepEqual(r.fixed, ['content_digest', 'manifest_digest']);
    assert.equal(r.notFixed, undefined);
    assert.equal(r.validation.valid, true, JSON.stringify(r.validation.diagnostics));
    assert.match(readFileSync(join(cwd, 'content-digest-mismatch', 'skill.yaml'), 'utf8'), new RegExp(r.validation.digests.content.computed ?? 'x'));
  });

  it('keeps the mode of a manifest the user made private (0600 stayed 0600, not 0644)', async () => {
    const cwd = copy('content-digest-mismatch');
    const file = join(cwd, 'content-digest-mismatch', 'skill.yaml');
    chmodSync(file, 0o600);
    const r = await fixManifestFile(cwd, await validateBundle(join(cwd, 'content-digest-mismatch'), 'content-digest-mismatch'));
    assert.deepEqual(r.fixed, ['content_digest', 'manifest_digest']);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('leaves a manifest that did not parse alone', async () => {
    const cwd = copy('multi-document');
    const before = await validateBundle(join(cwd, 'multi-document'), 'multi-document');
    const text = readFileSync(join(cwd, 'multi-document', 'skill.yaml'), 'utf8');
    const r = await fixManifestFile(cwd, before);
    assert.equal(r.validation, before);
    assert.equal(r.fixed, undefined);
    assert.equal(readFileSync(join(cwd, 'multi-document', 'skill.yaml'), 'utf8'), text);
  });
});
