// Payload validators: a manifest entrypoint's schema that $refs a contract, values handed over
// in-process (C1), rule locations in hints, and rules that need the input payload.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  BUILTIN_CONTRACT_BASE,
  compileContract,
  compilePayloadSchema,
  findContract,
  jsonValueIssues,
  loadContractSet,
  type ContractSet,
  type PayloadValidator,
} from '../../../src/core/contracts/index.js';
import { fixture, ROOT } from '../../helpers/paths.js';

function load(dir: 'valid' | 'invalid', file: string): unknown {
  return JSON.parse(readFileSync(fixture('contracts', dir, file), 'utf8')) as unknown;
}

async function validator(set: ContractSet, schema: unknown): Promise<PayloadValidator> {
  const v = await compilePayloadSchema(schema, set);
  if ('error' in v) throw new Error(v.error.message);
  return v;
}

function codes(found: readonly { code: string; pointer?: string }[]): string[] {
  return found.map((d) => `${d.code}@${d.pointer ?? ''}`);
}

describe('compilePayloadSchema', () => {
  let set: ContractSet;
  before(async () => {
    set = await loadContractSet({ dirs: ['fixtures/contracts/user/good'], cwd: ROOT });
  });

  it('an entrypoint output_schema that $refs a contract by $id enforces the contract', async () => {
    const v = await validator(set, { $ref: `${BUILTIN_CONTRACT_BASE}ctr.output.v1.schema.json` });
    assert.deepEqual(v.check(load('valid', 'ctr.output.five-each.json')), []);
    assert.deepEqual(codes(v.check(load('invalid', 'ctr.output.thumbnail-7-words.json'))), ['PAYLOAD_TOO_MANY_WORDS@/thumbnail_texts/3']);
  });

  it('names the rule that was broken: contract, schema location and value', async () => {
    const v = await validator(set, { $ref: `${BUILTIN_CONTRACT_BASE}ctr.output.v1.schema.json` });
    const [d] = v.check(load('invalid', 'ctr.output.thumbnail-7-words.json'));
    assert.equal(d?.hint, 'rule: ctr.output.v1#/$defs/thumbnail_text/maxWords = 6');
  });

  it('a schema may combine a contract with rules of its own, keywords included', async () => {
    const v = await validator(set, {
      type: 'object',
      required: ['thesis', 'label'],
      properties: { thesis: { $ref: `${BUILTIN_CONTRACT_BASE}click_thesis.v1.schema.json` }, label: { type: 'string', maxWords: 2, pattern: '^[a-z ]+$' } },
    });
    const thesis = load('valid', 'click_thesis.one-sentence-charged-and-bound.json');
    assert.deepEqual(v.check({ thesis, label: 'deposit trap' }), []);
    assert.deepEqual(codes(v.check({ thesis: 'Cats. Dogs.', label: 'Three Word Label' })), [
      'PAYLOAD_TOO_MANY_WORDS@/label',
      'PAYLOAD_VALUE_INVALID@/label',
      'PAYLOAD_NOT_EMOTIVE@/thesis',
      'PAYLOAD_NO_STAKES@/thesis',
      'PAYLOAD_SENTENCE_COUNT@/thesis',
    ]);
  });

  it('user contracts: uniqueItems and pattern map to their codes', async () => {
    const c = findContract(set, 'acme.summary.v1');
    assert.ok(c !== undefined);
    const v = await compileContract(set, c);
    assert.ok(!('error' in v));
    const payload = JSON.parse(readFileSync(fixture('contracts', 'user', 'payloads', 'acme.summary.v1.pattern-mismatch.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(codes(v.check(payload)), ['PAYLOAD_VALUE_INVALID@/tags/0']);
    assert.deepEqual(codes(v.check({ ...payload, tags: ['rent', 'rent'] })), ['PAYLOAD_DUPLICATE_ITEM@/tags/1']);
    assert.deepEqual(codes(v.check({ ...payload, tags: [] })), ['PAYLOAD_TOO_FEW_ITEMS@/tags']);
  });

  it('C3: a version 1 payload does not satisfy version 2, which renamed a field (tags to labels: too unlike to be called a rename)', async () => {
    const v2 = await compileContract(set, findContract(set, 'acme.summary') as NonNullable<ReturnType<typeof findContract>>);
    assert.ok(!('error' in v2));
    const v1payload = JSON.parse(readFileSync(fixture('contracts', 'user', 'payloads', 'acme.summary.v1.conforms.json'), 'utf8')) as unknown;
    assert.deepEqual(codes(v2.check(v1payload)), ['PAYLOAD_FIELD_MISSING@/labels', 'PAYLOAD_FIELD_UNKNOWN@/tags']);
  });

  it('C3: a respelt field (camelCase, typo) is reported as a rename of the field it stands for', async () => {
    const v = await compileContract(set, findContract(set, 'eval.output') as NonNullable<ReturnType<typeof findContract>>);
    assert.ok(!('error' in v));
    assert.deepEqual(codes(v.check({ result: 'FAIL', failureReason: 'Weak hook.', confidnce: 0.4 })), [
      'PAYLOAD_FIELD_MISSING@/confidence',
      'PAYLOAD_FIELD_RENAMED@/confidnce',
      'PAYLOAD_FIELD_RENAMED@/failureReason',
      'PAYLOAD_FIELD_MISSING@/failure_reason',
    ]);
  });

  it('rules relating output to input are reported unchecked without the input, and checked with it', async () => {
    const v = await compileContract(set, findContract(set, 'script.output') as NonNullable<ReturnType<typeof findContract>>);
    assert.ok(!('error' in v));
    const late = load('invalid', 'script.output.thesis-late.json');
    const without = v.check(late);
    assert.deepEqual(codes(without), ['PAYLOAD_RULE_UNCHECKED@/script', 'PAYLOAD_RULE_UNCHECKED@/script']);
    assert.ok(without.every((d) => d.severity === 'warning'));
    assert.deepEqual(codes(v.check(late, { input: load('valid', 'script.input.hook-title-thesis.json') })), ['PAYLOAD_OFF_SUBJECT@/script']);
    assert.deepEqual(codes(v.check(late, { input: { click_thesis: 42 } })), ['PAYLOAD_RULE_UNCHECKED@/script', 'PAYLOAD_RULE_UNCHECKED@/script']);
  });

  it('checks do not leak context from one call into the next', async () => {
    const v = await compileContract(set, findContract(set, 'script.output') as NonNullable<ReturnType<typeof findContract>>);
    assert.ok(!('error' in v));
    const good = load('valid', 'script.output.addresses-thesis-early.json');
    assert.deepEqual(v.check(good, { input: load('valid', 'script.input.hook-title-thesis.json') }), []);
    assert.equal(v.check(good).length, 2);
  });

  it('a schema that cannot be compiled is CONTRACT_MALFORMED, not an exception', async () => {
    const bad = await compilePayloadSchema({ $ref: 'https://contracts.example/nothing.json' }, set);
    assert.ok('error' in bad && bad.error.code === 'CONTRACT_MALFORMED');
    const badValue = await compilePayloadSchema({ type: 'string', maxWords: 'six' }, set);
    assert.ok('error' in badValue && badValue.error.code === 'CONTRACT_MALFORMED');
  });
});

describe('C1 for in-process values', () => {
  const cases: [string, unknown, string[]][] = [
    ['plain JSON', { a: [1, 'x', null, true, { b: 2.5 }] }, []],
    ['undefined field', { a: undefined }, ['PAYLOAD_NOT_JSON@/a']],
    ['NaN', { confidence: Number.NaN }, ['PAYLOAD_NOT_JSON@/confidence']],
    ['Infinity in a list', [1, Number.POSITIVE_INFINITY], ['PAYLOAD_NOT_JSON@/1']],
    ['a function', { f: () => 1 }, ['PAYLOAD_NOT_JSON@/f']],
    ['a bigint', { n: 1n }, ['PAYLOAD_NOT_JSON@/n']],
    ['a Date', { at: new Date(0) }, ['PAYLOAD_NOT_JSON@/at']],
    ['a Map', new Map(), ['PAYLOAD_NOT_JSON@']],
  ];
  for (const [what, value, want] of cases) it(what, () => assert.deepEqual(codes(jsonValueIssues(value)), want));
  it('a cycle', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    assert.deepEqual(codes(jsonValueIssues(a)), ['PAYLOAD_NOT_JSON@/self']);
  });
  it('a shared (not circular) object is fine', () => {
    const shared = { x: 1 };
    assert.deepEqual(jsonValueIssues({ a: shared, b: shared }), []);
  });
  it('a validator refuses a non-JSON value before any rule', async () => {
    const set = await loadContractSet({ cwd: ROOT });
    const v = await compileContract(set, findContract(set, 'eval.output') as NonNullable<ReturnType<typeof findContract>>);
    assert.ok(!('error' in v));
    assert.deepEqual(codes(v.check({ result: 'PASS', failure_reason: null, confidence: Number.NaN })), ['PAYLOAD_NOT_JSON@/confidence']);
  });
});
