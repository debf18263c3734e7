/**
 * The config blob is the publisher's: its `id` and `version` are taken only as a lock would record
 * them (a skill id, a semantic version), since they once named a file (run's scratch archive) and
 * a `1/../../x` version put it, and the directory removed with it, anywhere.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalize } from '../../../src/core/digest/index.js';
import { toSkillConfig } from '../../../src/core/oci/index.js';
import { DEMO_CONFIG } from '../../helpers/oci-cache.js';

const configBytes = (fields: Record<string, unknown>): Buffer => Buffer.from(canonicalize({ ...DEMO_CONFIG, ...fields }), 'utf8');

describe('toSkillConfig', () => {
  it('takes a skill id and a semantic version', () => {
    for (const [id, version] of [['demo', '1.0.0'], ['fs.read_text', '0.1.0-rc.1+build.5'], ['pdf-notes', '10.20.30']]) {
      assert.deepEqual(toSkillConfig(configBytes({ id, version }), 'config'), { ...DEMO_CONFIG, id, version });
    }
  });

  const refused: [string, Record<string, unknown>][] = [
    ['a version that climbs out of a directory', { version: '1/../../../victim/x' }],
    ['a version with a slash', { version: '1.0.0/x' }],
    ['a version that is not semantic', { version: '1.0' }],
    ['a version with a trailing newline', { version: '1.0.0\n' }],
    ['an id that climbs out of a directory', { id: '../victim' }],
    ['an id with a slash', { id: 'a/b' }],
    ['an id that starts with a dot', { id: '.hidden' }],
    ['an id in capitals', { id: 'Demo' }],
    ['an id over 128 characters', { id: 'a'.repeat(129) }],
    ['an empty id', { id: '' }],
    ['a version that is not a string', { version: 1 }],
  ];
  for (const [what, fields] of refused) {
    it(`refuses ${what}: OCI_MANIFEST_INVALID`, () => {
      assert.throws(() => toSkillConfig(configBytes(fields), 'config'), { code: 'OCI_MANIFEST_INVALID' });
    });
  }
});
