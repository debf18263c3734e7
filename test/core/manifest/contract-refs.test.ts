// A manifest entrypoint may name a built-in payload contract by $id; the linter checks it exists.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalManifest, codes, entrypoint, validateObject } from '../../helpers/manifests.js';

const BASE = 'https://unpkg.com/skillctl/schemas/contracts/';

async function withOutput(schema: Record<string, unknown>): Promise<Awaited<ReturnType<typeof validateObject>>> {
  const m = canonicalManifest();
  entrypoint(m).output_schema = schema;
  return validateObject(m);
}

describe('contract $refs in entrypoint schemas', () => {
  it('a shipped contract, whole or by JSON pointer, is accepted', async () => {
    assert.deepEqual(codes(await withOutput({ $ref: `${BASE}script.output.v1.schema.json` })), []);
    // result.t is left out of the fingerprint: an info finding of eligibility, not of the $ref.
    const r = await withOutput({ properties: { summary: { type: 'string' }, t: { $ref: `${BASE}ctr.output.v1.schema.json#/$defs/thumbnail_text` } } });
    assert.deepEqual(codes(r).filter((c) => c !== 'DETERMINISM_FINGERPRINT_UNCOVERED'), []);
  });

  it('an unknown built-in contract is CONTRACT_REF_UNRESOLVED at the $ref, a schema-stage loader error', async () => {
    const r = await withOutput({ $ref: `${BASE}script.output.v9.schema.json` });
    assert.deepEqual(codes(r), ['CONTRACT_REF_UNRESOLVED']);
    assert.equal(r.diagnostics[0]?.pointer, '/entrypoints/0/output_schema/$ref');
    assert.equal(r.loader_error?.error_code, 'ERR_SCHEMA_INVALID');
    assert.equal(r.loader_error?.validation_stage, 'schema');
  });

  it('a JSON pointer into a shipped contract must point at something', async () => {
    const r = await withOutput({ properties: { summary: { type: 'string' }, t: { $ref: `${BASE}ctr.output.v1.schema.json#/$defs/thumbnail` } } });
    assert.deepEqual(codes(r).filter((c) => c !== 'DETERMINISM_FINGERPRINT_UNCOVERED'), ['CONTRACT_REF_UNRESOLVED']);
    assert.equal(r.diagnostics.find((d) => d.code === 'CONTRACT_REF_UNRESOLVED')?.pointer, '/entrypoints/0/output_schema/properties/t/$ref');
  });

  it('other documents are known only at run time and are not judged', async () => {
    assert.deepEqual(codes(await withOutput({ $ref: 'https://contracts.example/acme/summary.v1.json' })), []);
  });
});
