// A `$ref` fragment is input: one with a malformed %-escape (`#/%`) names nothing and is a
// finding, never the URIError decodeURIComponent throws (which ended validate, pack, run and
// registry publish with an internal error).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSchemaDocument } from '../../../src/core/json-schema/index.js';
import { resolveLocalRef } from '../../../src/core/manifest/local-ref.js';

const check = (schema: Record<string, unknown>): string[] => checkSchemaDocument(schema, { pointer: '/s', label: 's', code: 'EMBEDDED_SCHEMA_INVALID' }).map((d) => d.message);

describe('$ref fragments with malformed escapes', () => {
  it('are refs that point at nothing, at the top and below a key that exists', () => {
    for (const ref of ['#/%', '#/properties/%', '#/properties/%E0%A4%A', '#/%zz']) {
      assert.deepEqual(check({ type: 'object', properties: { a: { $ref: ref } } }), [`$ref ${JSON.stringify(ref)} points at nothing in this schema`], ref);
    }
  });

  it('still resolve when well formed (%25 is a key spelt with %)', () => {
    assert.deepEqual(check({ properties: { '%': { type: 'string' }, a: { $ref: '#/properties/%25' } } }), []);
  });

  it('resolveLocalRef answers undefined for them', () => {
    assert.equal(resolveLocalRef({ properties: { a: {} } }, '#/properties/%'), undefined);
    assert.deepEqual(resolveLocalRef({ properties: { '%': { type: 'string' } } }, '#/properties/%25'), { type: 'string' });
  });
});
