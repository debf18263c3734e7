// Findings per input are capped, errors kept first, with one finding counting the rest; and
// appending a hundred thousand findings does not spread them into arguments.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diag, type Diagnostic } from '../../src/core/diagnostics.js';
import { capFindings, MAX_FINDINGS_PER_INPUT, pushAll } from '../../src/core/findings.js';

const many = (n: number, severity: 'error' | 'warning'): Diagnostic[] =>
  Array.from({ length: n }, (_, i) => diag('SCHEMA_UNKNOWN_FIELD', `f${i}`, { severity, pointer: `/k${String(i).padStart(6, '0')}` }));

describe('capFindings', () => {
  it('leaves up to the cap as it is, sorted', () => {
    const d = many(3, 'error').reverse();
    assert.deepEqual(capFindings(d), [...d].reverse());
  });

  it('keeps the first 1,000, errors first, and counts the rest as severe as the worst left out', () => {
    const out = capFindings([...many(1500, 'warning'), ...many(600, 'error')], 'x.json');
    assert.equal(out.length, MAX_FINDINGS_PER_INPUT + 1);
    assert.equal(out.filter((d) => d.severity === 'error' && d.code !== 'FINDINGS_TRUNCATED').length, 600);
    const last = out[out.length - 1] as Diagnostic;
    assert.deepEqual([last.code, last.severity, last.file], ['FINDINGS_TRUNCATED', 'warning', 'x.json']);
    assert.match(last.message, /^1100 more findings/);
    assert.equal(capFindings(many(1200, 'error')).at(-1)?.severity, 'error');
  });

  it('pushAll appends 200,000 items without a stack overflow', () => {
    const into: number[] = [];
    pushAll(into, Array.from({ length: 200_000 }, (_, i) => i));
    assert.equal(into.length, 200_000);
  });
});
