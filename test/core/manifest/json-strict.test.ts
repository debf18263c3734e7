// The JSON fast path gives exactly the data of the full parser, and every document the full
// parser refuses goes down the full path, so the findings and their positions are unchanged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocumentBytes, parseJsonStrict } from '../../../src/core/manifest/index.js';

const parse = (text: string): ReturnType<typeof parseDocumentBytes> => parseDocumentBytes(Buffer.from(text), 'json');

describe('strict JSON fast path', () => {
  it('yields the data JSON.parse yields for valid documents', () => {
    for (const text of [
      '{}',
      '{"a":[1,2.5,-0,1e3,true,false,null,"x"],"b":{"c":"\\u00e9\\n\\"\\\\/"}}',
      ' \n{ "k" : [ ] , "s": "日本", "emoji": "\\ud83d\\ude00" }\n',
      JSON.stringify({ deep: [[[[{ x: 1 }]]]] }),
    ]) {
      assert.deepEqual(parseJsonStrict(text, 64)?.data, JSON.parse(text), text);
      assert.deepEqual(parse(text).data, JSON.parse(text));
    }
  });

  it('refuses what the full parser refuses, which then reports it with a position', () => {
    const cases: [string, string][] = [
      ['{"a":1,"a":2}', 'MANIFEST_DUPLICATE_KEY'],
      // The same key spelled with an escape, and a repeat deep inside an array.
      ['{"a":1,"\\u0061":2}', 'MANIFEST_DUPLICATE_KEY'],
      ['{"l":[{"x":{"k":1,"k":1}}]}', 'MANIFEST_DUPLICATE_KEY'],
      ['{"__proto__":{"x":1}}', 'MANIFEST_FORBIDDEN_KEY'],
      ['{"n":9007199254740993}', 'MANIFEST_VALUE_NOT_JSON'],
      ['{"n":1e400}', 'MANIFEST_VALUE_NOT_JSON'],
      [`{"d":${'['.repeat(70)}${']'.repeat(70)}}`, 'MANIFEST_TOO_DEEP'],
      ['{"a":1,}', 'MANIFEST_PARSE_ERROR'],
      ['[1,2]', 'MANIFEST_NOT_MAPPING'],
    ];
    for (const [text, code] of cases) {
      const fast = parseJsonStrict(text, 64);
      assert.ok(fast === undefined || Array.isArray(fast.data), text);
      assert.deepEqual(parse(text).diagnostics.map((d) => d.code), [code], text);
    }
  });

  it('counts keys, not strings that look like keys, when it looks for repeats', () => {
    // Values holding quotes, colons and backslashes; keys holding escaped quotes.
    for (const text of [
      '{"a":"b\\":\\"c","d":["e:","\\\\",":"],"f\\"g":{"h" :\n"i"}}',
      '{"k":"\\"\\":1","k2":{"\\\\":":"}}',
    ]) {
      assert.deepEqual(parseJsonStrict(text, 64)?.data, JSON.parse(text), text);
    }
  });

  it('refuses documents over the key and node bounds it is given', () => {
    assert.equal(parseJsonStrict('{"a":1,"b":2,"c":3}', 64, { maxKeys: 2, maxNodes: 100 }), undefined);
    assert.equal(parseJsonStrict('{"a":[1,2,3,4]}', 64, { maxKeys: 10, maxNodes: 5 }), undefined);
    assert.deepEqual(parseJsonStrict('{"a":[1,2,3]}', 64, { maxKeys: 10, maxNodes: 6 })?.data, { a: [1, 2, 3] });
  });

  it('builds source positions only when asked, and then correctly', () => {
    const doc = parse('{\n  "a": {\n    "b": 1\n  }\n}\n');
    assert.deepEqual(doc.diagnostics, []);
    assert.deepEqual(doc.locate('/a/b'), { line: 3, column: 10 });
  });
});
