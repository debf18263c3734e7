import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixtureContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';

const ID = 'json.validate';

interface Validated {
  valid: boolean;
  errors: { pointer: string; message: string }[];
}

const { ctx, gate } = fixtureContext({ cwd: '/', policy: {} });

const PERSON = {
  type: 'object',
  required: ['name', 'email'],
  properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' }, tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } },
  additionalProperties: false,
};

describe('json.validate', () => {
  it("answers the seed's example request with the seed's response", async () => {
    assert.deepEqual(okOutput(await runSkill(ID, { json: '{"a": 1}', schema: { type: 'object' } }, ctx)), { valid: true, errors: [] });
    assert.deepEqual(gate.calls, []);
  });

  it('reports every error with a JSON pointer into the document (draft 2020-12, with formats)', async () => {
    const json = JSON.stringify({ email: 'not-an-email', tags: ['ok', 'NO'], extra: true });
    const out = okOutput<Validated>(await runSkill(ID, { json, schema: PERSON }, ctx));
    assert.equal(out.valid, false);
    assert.deepEqual(out.errors.map((e) => e.pointer).sort(), ['/email', '/extra', '/name', '/tags/1']);
  });

  it('follows the draft the schema names: draft-07', async () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false };
    assert.deepEqual(okOutput<Validated>(await runSkill(ID, { json: '["a"]', schema }, ctx)).valid, true);
    const out = okOutput<Validated>(await runSkill(ID, { json: '["a", 2]', schema }, ctx));
    assert.deepEqual(out.errors.map((e) => e.pointer), ['']);
    const dated = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', format: 'date' };
    assert.equal(okOutput<Validated>(await runSkill(ID, { json: '"2026-02-30"', schema: dated }, ctx)).valid, false);
  });

  it('reports a document that is not JSON as invalid', async () => {
    const out = okOutput<Validated>(await runSkill(ID, { json: '{"a": ', schema: { type: 'object' } }, ctx));
    assert.equal(out.valid, false);
    assert.equal(out.errors[0]?.pointer, '');
  });

  it('reports a schema that cannot be compiled as an error, not a crash', async () => {
    for (const schema of [{ type: 'nonsense' }, { $ref: '#/$defs/missing' }, { $ref: 'https://example.com/remote.json' }, { pattern: '(' }, { $schema: 'http://json-schema.org/draft-04/schema#' }]) {
      assert.equal(errorCode(await runSkill(ID, { json: '{}', schema }, ctx)), 'SCHEMA_UNCOMPILABLE', JSON.stringify(schema));
    }
  });

  it('evaluates patterns in linear time: a catastrophic pattern cannot hang the process', async () => {
    const t0 = performance.now();
    const out = okOutput<Validated>(await runSkill(ID, { json: JSON.stringify('a'.repeat(10_000) + '!'), schema: { type: 'string', pattern: '^(a+)+$' } }, ctx));
    assert.equal(out.valid, false);
    assert.ok(performance.now() - t0 < 5000);
  });

  it('bounds the document and the error list', async () => {
    const many = JSON.stringify(Array.from({ length: 500 }, () => 'x'));
    const out = okOutput<Validated>(await runSkill(ID, { json: many, schema: { type: 'array', items: { type: 'integer' } } }, ctx));
    assert.deepEqual([out.valid, out.errors.length], [false, 200]);
    const huge = '"' + 'x'.repeat(4 * 1024 * 1024) + '"';
    assert.equal(errorCode(await runSkill(ID, { json: huge, schema: {} }, ctx, { unchecked: true })), 'SKILL_INPUT_TOO_LARGE');
  });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, { schema: {} }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/json' }]);
    assert.deepEqual(await inputFindings(ID, { json: {}, schema: {} }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/json' }]);
    assert.deepEqual(await inputFindings(ID, { json: '{}', schema: 'object' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/schema' }]);
  });
});
