// Fingerprint fields are looked up through local $refs and allOf/anyOf/oneOf in time linear in the
// schema: branches that $ref one definition several times must not multiply the walk per level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalManifest, entrypoint, validateObject } from '../../../helpers/manifests.js';

function selfReferring(fields: string[]): Record<string, unknown> {
  const m = canonicalManifest();
  const refs = Array.from({ length: 4 }, () => ({ $ref: '#/$defs/a' }));
  entrypoint(m).input_schema = { type: 'object', properties: { task: { type: 'string' } }, $defs: { a: { properties: { x: {} }, allOf: refs } }, allOf: [{ $ref: '#/$defs/a' }] };
  entrypoint(m).args_fingerprint_fields = fields;
  return m;
}

describe('fingerprint field lookup', () => {
  it('a definition that refers to itself four times: an undeclared field is found quickly, a declared one accepted', async () => {
    const started = Date.now();
    const r = await validateObject(selfReferring(['input.task', 'input.x', 'input.nope']));
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code === 'FINGERPRINT_FIELD_UNKNOWN').map((d) => d.pointer),
      ['/entrypoints/0/args_fingerprint_fields/2'],
    );
  });
});
