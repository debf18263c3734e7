import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalDigest, canonicalize, canonicalJson, jcsDigest, sha256 } from '../../../src/core/digest/index.js';
import { SkillctlError } from '../../../src/core/errors.js';

function fromBits(hex: string): number {
  const b = Buffer.from(hex, 'hex');
  return b.readDoubleBE(0);
}

describe('RFC 8785 canonicalization', () => {
  it('serialises the example of §3.2.2 byte for byte', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    assert.equal(
      canonicalize(input),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units (§3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalize(input)) as object);
    // JSON.parse re-orders integer-like keys, so compare the serialised order instead.
    assert.deepEqual(keys.length, 7);
    const text = canonicalize(input);
    const order = ['\\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'].map((k) => text.indexOf(`"${k}"`));
    assert.deepEqual([...order].sort((a, b) => a - b), order);
  });

  const numbers: [string, string][] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  for (const [bits, text] of numbers) {
    it(`formats IEEE 754 0x${bits} as ${text} (Appendix B)`, () => {
      assert.equal(canonicalize(fromBits(bits)), text);
    });
  }

  for (const [name, value] of [
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a lone surrogate', '\ud800x'],
    ['undefined in an array', [undefined]],
    ['a function', () => 1],
  ] as [string, unknown][]) {
    it(`refuses ${name} with DIGEST_NOT_CANONICALIZABLE`, () => {
      assert.throws(
        () => canonicalize(value),
        (err: unknown) => err instanceof SkillctlError && err.code === 'DIGEST_NOT_CANONICALIZABLE',
      );
    });
    it(`returns DIGEST_NOT_CANONICALIZABLE for ${name} read from a file, as a finding`, () => {
      for (const r of [canonicalJson({ a: [value] }), canonicalDigest({ a: [value] })]) {
        assert.equal(r.ok, false);
        assert.equal(r.value, undefined);
        assert.deepEqual(
          r.diagnostics.map((d) => d.code),
          ['DIGEST_NOT_CANONICALIZABLE'],
        );
      }
    });
  }

  it('locates the value that has no canonical form', () => {
    assert.match(canonicalJson({ a: [1, Number.NaN] }).diagnostics[0]?.message ?? '', /^\(root\)\/a\/1 is NaN/);
    assert.deepEqual(canonicalDigest({ b: 1 }), { ok: true, value: jcsDigest({ b: 1 }), diagnostics: [] });
  });

  it('refuses documents nested beyond the depth bound instead of overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    assert.throws(() => canonicalize(deep), (err: unknown) => err instanceof SkillctlError && err.code === 'DIGEST_NOT_CANONICALIZABLE');
  });

  it('omits undefined members as JSON.stringify does', () => {
    assert.equal(canonicalize({ b: 1, a: undefined }), '{"b":1}');
  });
});

describe('sha256 digests', () => {
  it('prefixes lowercase hex with sha256:', () => {
    assert.equal(sha256(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
  it('hashes the canonical form, so key order and whitespace do not matter', () => {
    assert.equal(jcsDigest(JSON.parse('{ "b": [1, 2], "a": "x" }')), jcsDigest({ a: 'x', b: [1, 2] }));
    assert.equal(jcsDigest({ a: 'x' }), sha256('{"a":"x"}'));
  });
});
