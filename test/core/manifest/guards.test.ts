import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseDocumentBytes, readCleanJson } from '../../../src/core/manifest/index.js';
import { ROOT } from '../../helpers/paths.js';

const b = (s: string | Uint8Array): Buffer => Buffer.from(s);

/** What the full parser makes of a JSON document: its value, or undefined when it reports an error (a non-object top level is allowed). */
function fullValue(bytes: Uint8Array): { value: unknown } | undefined {
  const doc = parseDocumentBytes(bytes, 'json');
  const errors = doc.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return { value: doc.data };
  if (errors.length === 1 && errors[0]?.code === 'MANIFEST_NOT_MAPPING' && doc.text.trim() !== '') return { value: JSON.parse(doc.text) as unknown };
  return undefined;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name));
}

describe('readCleanJson: the guarded JSON reader without the YAML parser', () => {
  it('reads clean documents of any JSON type, as JSON.parse does', () => {
    for (const text of ['{}', '[]', '"a string"', '12.5', 'null', 'true', '{"a":[1,{"b":"c\\"}"}],"d\\u0041":-0.5e3}', '\uFEFF{"bom":1}', ` {"k": "é😀"} `]) {
      assert.deepEqual(readCleanJson(b(text)), { value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown }, text);
    }
  });

  it('leaves to the full parser every document one of its guards refuses', () => {
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    const refused = [
      '', '{', '{"a":1,}', '{"a":1,"a":2}', '{"a":{"x":1,"x":1}}', '{"\\u0061":1,"a":2}', '{"__proto__":{}}', '[{"constructor":1}]', '{"prototype":1}',
      '9007199254740993', '{"n":1e400}', '[-1e309]', deep(65), '{"a":"\u0000"}',
    ];
    for (const text of refused) assert.equal(readCleanJson(b(text)), undefined, text.slice(0, 40));
    assert.deepEqual(readCleanJson(b(deep(64))), { value: JSON.parse(deep(64)) as unknown });
    assert.equal(readCleanJson(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), undefined, 'invalid UTF-8');
    assert.equal(readCleanJson(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')])), undefined, 'UTF-16');
    assert.equal(readCleanJson(Buffer.alloc(4 * 1024 * 1024 + 1, 0x20)), undefined, 'over the size bound');
  });

  it('accepts only what the full parser accepts, with the same value (every JSON file in the repository, and the cases above)', () => {
    const corpus: Buffer[] = [...jsonFiles(join(ROOT, 'fixtures')), ...jsonFiles(join(ROOT, 'schemas'))].map((f) => readFileSync(f));
    corpus.push(b('{"a":1,"a":2}'), b('{"__proto__":1}'), b('[1e400]'), b('"x"'), b('{"a":{"b":[null,true,"\\ud800"]}}'), b(`{"${'k'.repeat(1100)}":1}`));
    assert.ok(corpus.length > 50);
    let clean = 0;
    for (const bytes of corpus) {
      const fast = readCleanJson(bytes);
      if (fast === undefined) continue;
      clean++;
      assert.deepEqual(fullValue(bytes), fast, bytes.toString('utf8').slice(0, 80));
    }
    assert.ok(clean > 40, `${clean} clean documents compared`);
  });
});
