// Every fixture bundle under fixtures/manifests/ yields exactly the codes fixtures/manifests/expected.json
// lists for it: valid ones no error, each invalid one the finding it was written to prove.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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
    // Generated at run time, 50 MB: a row of test/security/hostile-documents.test.ts.
    if (name === 'invalid/too-large-generated') continue;
    it(`${name} reports ${codes.length === 0 ? 'nothing' : codes.join(', ')}`, async () => {
      const r = await validateBundle(fixture('manifests', name));
      assert.deepEqual(codesOf(r.diagnostics), codes, JSON.stringify(r.diagnostics, null, 2));
      assert.equal(r.valid, name.startsWith('valid/'));
      if (!r.valid) assert.ok(r.loader_error, 'an invalid manifest has a loader error');
    });
  }
});
