// JSON syntax errors in skillctl's own words (json-syntax.ts): one line, the same on every Node
// version, at the line and column of the first error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonSyntaxProblem } from '../../../src/core/manifest/index.js';

describe('jsonSyntaxProblem', () => {
  it('the first error, one line, whatever Node version', () => {
    const cases: [string, string, number, number][] = [
      ['', 'the document is empty', 1, 1],
      ['{"a":1', "the document ends where ',' or '}' was expected", 1, 7],
      ['{"a":"x\ny"}', 'a control character (U+000A) in a string must be escaped', 1, 8],
      ['{"a":"x', 'a string is not closed', 1, 6],
      ['[01]', 'a number is malformed', 1, 3],
      ['[1] [2]', "unexpected '[' after the JSON value (one value per document)", 1, 5],
      ['{"a":-}', 'a number is malformed', 1, 6],
      ['"\\q"', 'a string has an invalid escape', 1, 2],
      ['[\n\n  nul]', "unexpected 'n' where a value was expected", 3, 3],
    ];
    for (const [text, reason, line, column] of cases) assert.deepEqual(jsonSyntaxProblem(text), { reason, line, column }, text);
    assert.equal(jsonSyntaxProblem('{"a": [1, 2, {"b": null}]}'), undefined);
    assert.deepEqual(jsonSyntaxProblem('['.repeat(200_000)), { reason: 'it nests too deeply to be read', line: 1, column: 1 });
  });
});
