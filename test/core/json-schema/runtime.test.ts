// A schema already checked (validateSchema: false) is compiled without the meta-schemas in the
// instance, and must mean exactly what it meant with them: `$schema` of either dialect is still
// accepted, and a schema that names a meta-schema (a $ref to one, an $id that clashes with one)
// still gets them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema } from '../../../src/core/json-schema/index.js';

const checked = { validateSchema: false } as const;

async function compiled(schema: unknown, opts = {}): Promise<{ check(v: unknown): { code: string }[] }> {
  const c = await compileSchema(schema, opts);
  if ('error' in c) assert.fail(c.error.message);
  return c;
}

describe('compileSchema of a schema already checked', () => {
  it('accepts a 2020-12 $schema and checks values as before', async () => {
    const c = await compiled({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['path'], properties: { path: { type: 'string', format: 'uri-reference' } } }, checked);
    assert.deepEqual(c.check({ path: 'a/b' }), []);
    assert.deepEqual(
      c.check({}).map((d) => d.code),
      ['SCHEMA_VALUE_INVALID'],
    );
    assert.equal(c.check({ path: 7 }).length, 1);
  });

  it('accepts a draft-07 $schema, compiled as draft-07 (items as an array is a tuple)', async () => {
    const c = await compiled({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false }, checked);
    assert.deepEqual(c.check(['a']), []);
    assert.equal(c.check(['a', 'b']).length, 1);
  });

  it('resolves a $ref to the 2020-12 meta-schema (a skill whose input is a schema)', async () => {
    const c = await compiled({ type: 'object', properties: { schema: { $ref: 'https://json-schema.org/draft/2020-12/schema' } } }, checked);
    assert.deepEqual(c.check({ schema: { type: 'string' } }), []);
    assert.ok(c.check({ schema: { type: 'no-such-type' } }).length > 0);
  });

  it('refuses an $id that clashes with a meta-schema, as an instance with its meta-schemas does', async () => {
    const schema = { $id: 'https://json-schema.org/draft/2020-12/schema', type: 'string' };
    const lean = await compileSchema(schema, checked);
    const full = await compileSchema(schema);
    assert.ok('error' in lean && 'error' in full);
    assert.equal(lean.error.code, 'SCHEMA_UNCOMPILABLE');
    assert.equal(lean.error.message, full.error.message);
  });

  it('reports an unresolvable $ref as SCHEMA_UNCOMPILABLE, never a throw', async () => {
    const c = await compileSchema({ $ref: 'https://example.test/nowhere.json' }, checked);
    assert.ok('error' in c);
    assert.equal(c.error.code, 'SCHEMA_UNCOMPILABLE');
    assert.match(c.error.message, /can't resolve reference https:\/\/example\.test\/nowhere\.json/);
  });

  it('still checks an unchecked schema against its meta-schema', async () => {
    const c = await compileSchema({ type: 'no-such-type' });
    assert.ok('error' in c);
    assert.equal(c.error.code, 'SCHEMA_UNCOMPILABLE');
    assert.match(c.error.message, /schema is invalid/);
  });
});
