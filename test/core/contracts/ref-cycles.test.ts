// $ref cycles that never move into the payload are refused when the set is loaded
// (CONTRACT_REF_CYCLE), before ajv recurses on them; recursion through properties is fine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildContractSet } from '../../../src/core/contracts/index.js';

const source = (name: string, schema: Record<string, unknown>) => ({
  origin: 'user' as const,
  file: `${name}.json`,
  data: { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `https://contracts.example/${name}.json`, contract: name, ...schema },
});

describe('contract $ref cycles', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['acme.self.v1', { $ref: '#' }],
    ['acme.pair.v1', { properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { $ref: '#/$defs/y' }, y: { $ref: '#/$defs/x' } } }],
    ['acme.allof.v1', { $defs: { x: { allOf: [{ not: { $ref: '#/$defs/x' } }] } }, properties: { a: { $ref: '#/$defs/x' } } }],
  ];
  for (const [name, schema] of cases) {
    it(`${name}: CONTRACT_REF_CYCLE, left out`, () => {
      const set = buildContractSet([source(name, schema)]);
      assert.deepEqual(set.diagnostics.map((d) => d.code), ['CONTRACT_REF_CYCLE']);
      assert.deepEqual(set.contracts, []);
    });
  }

  it('a cycle across two contracts is refused in both', () => {
    const a = source('acme.a.v1', { $ref: 'https://contracts.example/acme.b.v1.json' });
    const b = source('acme.b.v1', { anyOf: [{ $ref: 'https://contracts.example/acme.a.v1.json' }] });
    const set = buildContractSet([a, b]);
    assert.ok(set.diagnostics.some((d) => d.code === 'CONTRACT_REF_CYCLE'));
    assert.deepEqual(set.contracts, []);
  });

  it('recursion that moves into the payload (properties, items) is no cycle', () => {
    const tree = source('acme.tree.v1', { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } });
    const set = buildContractSet([tree]);
    assert.deepEqual(set.diagnostics, []);
    assert.deepEqual(set.contracts.map((c) => c.name), ['acme.tree.v1']);
  });
});
