// `uniqueItems` is decided in one pass over the array, with the finding ajv's own: ajv compared
// every pair of items, and 40,000 numbers (a payload, an agent's input, a skill's output) took 19 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { compileSchema } from '../../../src/core/json-schema/index.js';
import { repeatedItem } from '../../../src/core/json-schema/unique-items.js';
import { seeded } from '../../helpers/seeded.js';

const VALUES: readonly unknown[] = [0, -0, 1, 1.5, '1', 'a', '"a', true, false, null, [], [1], [1, 2], [2, 1], {}, { a: 1 }, { a: 1, b: 2 }, { b: 2, a: 1 }, { a: '1' }, [{ a: [] }], '\ud800', 2 ** 53 - 1];
const SCHEMAS: readonly Record<string, unknown>[] = [
  { uniqueItems: true },
  { uniqueItems: true, items: { type: 'number' } },
  { uniqueItems: true, items: { type: 'integer' } },
  { uniqueItems: true, items: { type: 'string' } },
  { uniqueItems: true, items: { type: ['string', 'number'] } },
  { uniqueItems: true, items: { type: ['string', 'null', 'boolean'] } },
  { uniqueItems: true, items: { type: ['object', 'string'] } },
  { uniqueItems: false },
];

describe('uniqueItems', () => {
  it('reports what ajv reports, on generated arrays and every way ajv types the items', () => {
    const next = seeded(20261201);
    const theirs = SCHEMAS.map((s) => new Ajv2020({ allErrors: true, strict: false }).compile({ type: 'array', ...s }));
    let repeats = 0;
    for (let k = 0; k < 20_000; k++) {
      const items = Array.from({ length: Math.floor(next() * 8) }, () => VALUES[Math.floor(next() * VALUES.length)]);
      SCHEMAS.forEach((schema, n) => {
        const validate = theirs[n] as (typeof theirs)[number];
        const want = validate(items) ? undefined : validate.errors?.find((e: ErrorObject) => e.keyword === 'uniqueItems')?.params;
        const types = ((schema.items as { type?: string | string[] } | undefined)?.type ?? []) as string | string[];
        const got = schema.uniqueItems === true ? repeatedItem(items, typeof types === 'string' ? [types] : types) : undefined;
        if (want !== undefined) repeats++;
        assert.deepEqual(got === undefined ? undefined : { ...got }, want === undefined ? undefined : { ...want }, `${JSON.stringify(schema)} ${JSON.stringify(items)}`);
      });
    }
    assert.ok(repeats > 10_000, `the generated arrays repeat items too (${repeats})`);
  });

  it('keeps ajv finding, message and paths through a compiled schema', async () => {
    const c = await compileSchema({ type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } }, { validateSchema: false, mapErrors: (errors) => errors.map((e) => ({ code: 'SCHEMA_VALUE_INVALID', severity: 'error', message: `${e.instancePath} ${e.schemaPath} ${e.message ?? ''}` })) });
    if ('error' in c) assert.fail(c.error.message);
    assert.deepEqual(
      c.check({ xs: [{ a: 1, b: [2] }, 3, { b: [2], a: 1 }] }).map((d) => d.message),
      ['/xs #/properties/xs/uniqueItems must NOT have duplicate items (items ## 0 and 2 are identical)'],
    );
    assert.deepEqual(c.check({ xs: [1, '1', [1], { 1: 1 }] }), []);
  });

  it('decides 190,000 items at once (ajv: minutes)', async () => {
    const c = await compileSchema({ type: 'array', uniqueItems: true }, { validateSchema: false });
    if ('error' in c) assert.fail(c.error.message);
    const t0 = performance.now();
    assert.equal(c.check([0, ...Array.from({ length: 190_000 }, (_, i) => i)]).length, 1);
    assert.deepEqual(c.check(Array.from({ length: 190_000 }, (_, i) => [i])), []);
    assert.ok(performance.now() - t0 < 5_000, 'a hang guard, not a speed figure');
  });
});
