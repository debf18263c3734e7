// Schema patterns from users are matched in linear time (RE2), and refused when RE2 cannot
// express them, instead of being matched differently.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSchema, patternProblem } from '../../../src/core/json-schema/index.js';
import { compileLinear, linearPatternProblem } from '../../../src/core/json-schema/linear-regexp.js';

describe('linear-time patterns', () => {
  it('matches ^(a+)+$ against 40 a and a bang at once (a backtracking engine takes minutes)', () => {
    const re = compileLinear('^(a+)+$', 'u');
    const t0 = performance.now();
    assert.equal(re.test(`${'a'.repeat(40)}!`), false);
    assert.equal(re.test('aaaa'), true);
    assert.ok(performance.now() - t0 < 5_000, 'a hang guard, not a speed figure');
  });

  it('refuses look-around and back-references with a reason', () => {
    for (const p of ['(?=a)a', '(?!a)b', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>', 'a{1001}']) {
      assert.notEqual(linearPatternProblem(p), undefined, p);
      assert.throws(() => compileLinear(p, 'u'), /not supported/, p);
      assert.notEqual(patternProblem(p), undefined, p);
    }
    for (const p of ['^[a-z]+$', '(?:ab)+', '\\p{L}+', '[\\u0020-\\u007e]*', '^[0-9a-f]{4,64}$']) assert.equal(patternProblem(p), undefined, p);
    assert.equal(patternProblem('('), 'is not a valid regular expression');
  });

  it('is the engine of every schema compiled at run time', async () => {
    const compiled = await compileSchema({ type: 'string', pattern: '^(a+)+$' });
    assert.ok(!('error' in compiled));
    assert.equal(compiled.check(`${'a'.repeat(64)}!`).length, 1);
    const refused = await compileSchema({ type: 'string', pattern: '^(?=a)' });
    assert.ok('error' in refused && refused.error.code === 'SCHEMA_UNCOMPILABLE');
  });
});
