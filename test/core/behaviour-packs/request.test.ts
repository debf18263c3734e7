import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_PROFILES, checkPackRequest, parsePackRequest, PACK_REQUEST_MAX_BYTES } from '../../../src/core/behaviour-packs/index.js';

const PROFILES = BUILTIN_PROFILES;

function problems(input: unknown): [string, string | undefined][] {
  const r = checkPackRequest(input, PROFILES);
  assert.equal(r.ok, r.diagnostics.length === 0);
  return r.diagnostics.map((d) => [d.code, d.pointer]);
}

describe('checkPackRequest', () => {
  it('accepts the seed example and fills in the default profile', () => {
    assert.deepEqual(checkPackRequest({ profile: 'daily', max_chars: 2000 }, PROFILES).value, { profile: 'daily', max_chars: 2000 });
    assert.deepEqual(checkPackRequest({}, PROFILES).value, { profile: 'daily' });
    assert.deepEqual(checkPackRequest({ profile: null, max_chars: null }, PROFILES).value, { profile: 'daily' });
    assert.deepEqual(checkPackRequest({ max_chars: -3 }, PROFILES).value, { profile: 'daily', max_chars: -3 });
  });

  for (const [label, input] of [
    ['null', null],
    ['an array', [{ profile: 'daily' }]],
    ['a string', 'daily'],
    ['a number', 2000],
    ['a boolean', true],
  ] as const) {
    it(`refuses a request that is ${label}`, () => assert.deepEqual(problems(input), [['INVALID_INPUT', '']]));
  }

  for (const [label, value] of [
    ['a string', '2000'],
    ['a fraction', 2.5],
    ['a boolean', true],
    ['infinity', Infinity],
    ['NaN', NaN],
    ['an array', [2000]],
    ['an object', { n: 2000 }],
  ] as const) {
    it(`refuses max_chars that is ${label}`, () => assert.deepEqual(problems({ max_chars: value }), [['INVALID_INPUT', '/max_chars']]));
  }

  for (const [label, value] of [
    ['unknown', 'deep'],
    ['differently cased', 'Daily'],
    ['padded', ' daily'],
    ['a number', 1],
    ['empty', ''],
  ] as const) {
    it(`refuses a profile that is ${label}, naming the allowed values`, () => {
      const r = checkPackRequest({ profile: value }, PROFILES);
      assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [['INVALID_INPUT', '/profile']]);
      for (const p of PROFILES) assert.match(r.diagnostics[0]?.message ?? '', new RegExp(`\\b${p}\\b`));
      assert.match(r.diagnostics[0]?.message ?? '', /profile/);
    });
  }

  it('suggests the closest profile and field', () => {
    assert.match(checkPackRequest({ profile: 'stict' }, PROFILES).diagnostics[0]?.hint ?? '', /strict/);
    assert.match(checkPackRequest({ maxchars: 10 }, PROFILES).diagnostics[0]?.hint ?? '', /max_chars/);
  });

  it('refuses unknown fields, including prototype names, and reports every problem at once', () => {
    assert.deepEqual(problems({ profile: 'nope', max_chars: 'x', extra: 1, __proto__: 1 }).sort(), [
      ['INVALID_INPUT', '/extra'],
      ['INVALID_INPUT', '/max_chars'],
      ['INVALID_INPUT', '/profile'],
    ]);
    assert.deepEqual(problems(JSON.parse('{"__proto__": {"profile": "strict"}}')), [['INVALID_INPUT', '/__proto__']]);
  });

  it('offers operator profiles when they are passed in', () => {
    assert.deepEqual(checkPackRequest({ profile: 'acme-oncall' }, [...PROFILES, 'acme-oncall']).value, { profile: 'acme-oncall' });
  });
});

describe('parsePackRequest', () => {
  const parse = (s: string): ReturnType<typeof parsePackRequest> => parsePackRequest(Buffer.from(s));

  it('parses an object, and passes a non-object on for checkPackRequest to name', () => {
    assert.deepEqual(parse('{"profile": "strict", "max_chars": 2000}').value, { profile: 'strict', max_chars: 2000 });
    assert.deepEqual(parse('[1]').value, [1]);
    assert.equal(parse('"daily"').value, 'daily');
  });

  for (const [label, text] of [
    ['empty', ''],
    ['blank', ' \n'],
    ['not JSON', '{profile: daily}'],
    ['truncated JSON', '{"profile": "daily"'],
    ['YAML', 'profile: daily'],
    ['two documents', '{} {}'],
    ['a duplicate key', '{"profile": "daily", "profile": "strict"}'],
    ['a prototype key', '{"__proto__": {"x": 1}}'],
  ] as const) {
    it(`refuses a request that is ${label} as INVALID_INPUT`, () => {
      const r = parse(text);
      assert.equal(r.ok, false);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['INVALID_INPUT']);
    });
  }

  it('names a JSON syntax error in its own words, at its line and column', () => {
    const [d] = parse('{"profile":\n  daily}').diagnostics;
    assert.deepEqual([d?.message, d?.line, d?.column], ["the request is not valid JSON: unexpected 'd' where a value was expected", 2, 3]);
  });

  it('refuses a request over the size bound', () => {
    const big = `{"profile": "daily", "pad": "${'x'.repeat(PACK_REQUEST_MAX_BYTES)}"}`;
    assert.deepEqual(parse(big).diagnostics.map((d) => d.code), ['INVALID_INPUT']);
  });
});
