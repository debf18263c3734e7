// Every fixture bundle under fixtures/manifests/ yields exactly the codes fixtures/manifests/expected.json
// lists for it: valid ones no error, each invalid one the finding it was written to prove.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateBundle } from '../../../src/core/manifest/index.js';
import { fixture } from '../../helpers/paths.js';

const expected = JSON.parse(readFileSync(fixture('manifests', 'expected.json'), 'utf8')) as Record<string, string[]>;
delete expected.$comment;

function codesOf(diagnostics: readonly { code: string; severity: string }[]): string[] {
  return [...new Set(diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code))].sort();
}

describe('manifest fixtures', () => {
  it('every fixture directory has an expectation, and every expectation a directory', () => {
    const dirs = ['valid', 'invalid'].flatMap((k) => readdirSync(fixture('manifests', k)).map((d) => `${k}/${d}`)).sort();
    assert.deepEqual(dirs, Object.keys(expected).sort());
  });

  for (const [name, codes] of Object.entries(expected)) {
    if (name === 'invalid/too-large-generated') continue;
    it(`${name} reports ${codes.length === 0 ? 'nothing' : codes.join(', ')}`, async () => {
      const r = await validateBundle(fixture('manifests', name));
      assert.deepEqual(codesOf(r.diagnostics), codes, JSON.stringify(r.diagnostics, null, 2));
      assert.equal(r.valid, name.startsWith('valid/'));
      if (!r.valid) assert.ok(r.loader_error, 'an invalid manifest has a loader error');
    });
  }

  it('invalid/too-large-generated: a 50 MB manifest is refused unparsed with MANIFEST_TOO_LARGE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillctl-large-'));
    try {
      cpSync(fixture('manifests', 'invalid', 'too-large-generated'), dir, { recursive: true });
      const line = `x-padding: "${'a'.repeat(1000)}"\n`;
      writeFileSync(join(dir, 'skill.yaml'), 'skill_id: fixture.demo\n' + line.repeat(50 * 1024));
      const r = await validateBundle(dir);
      assert.deepEqual(codesOf(r.diagnostics), expected['invalid/too-large-generated']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
