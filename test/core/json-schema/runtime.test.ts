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

describe('compileSchema: the cost of one check is bounded', () => {
  // Both branches fail only at the innermost value, so every path through the levels is tried:
  // 2^40 of them, which ran for hours (and, with ajv's findings of every branch kept, out of
  // memory) until the stop of 2026-12-01.
  const both = { type: 'array', items: { $ref: '#/$defs/x' } };
  const multiplying = { $defs: { x: { anyOf: [both, { ...both, minItems: 1 }] } }, $ref: '#/$defs/x' };
  const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;

  it('a check past its budget is stopped: SCHEMA_CHECK_TOO_COSTLY, and the next check of the same schema runs', async () => {
    const c = await compileSchema(multiplying, { budgetMs: 300 });
    if ('error' in c) assert.fail(c.error.message);
    const started = Date.now();
    const found = c.check(nested(40));
    assert.ok(Date.now() - started < 3_000, `stopped after ${Date.now() - started} ms`);
    assert.deepEqual(
      found.map((d) => [d.code, d.pointer, d.message]),
      [['SCHEMA_CHECK_TOO_COSTLY', '', "the value was not checked: its schema's check ran past 0.3 s and was stopped"]],
    );
    // A shallow value is checked in full, by the same compiled schema, afterwards.
    assert.deepEqual(c.check([[[]]]), []);
    assert.equal(c.check(nested(3))[0]?.code, 'SCHEMA_VALUE_INVALID');
  });

  it('an error thrown by the check itself is not taken for the budget', async () => {
    const c = await compileSchema({ type: 'array', boom: true }, { keywords: [{ keyword: 'boom', validate: () => { throw new Error('boom'); } }] });
    if ('error' in c) assert.fail(c.error.message);
    assert.throws(() => c.check([]), { message: 'boom' });
  });
});
