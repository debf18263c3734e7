// Seed 001 §6: any violation discards the output and re-runs the skill; nothing is accepted in part.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enforceOutput } from '../../../src/core/contracts/index.js';
import { diag, type Diagnostic } from '../../../src/core/diagnostics.js';
import { InternalError } from '../../../src/core/errors.js';

/** A check that rejects every output that is not the string 'good'. */
function check(output: string): Diagnostic[] {
  return output === 'good' ? [] : [diag('PAYLOAD_ENUM', `got ${output}`, { pointer: '' })];
}

describe('enforceOutput', () => {
  it('accepts the first conforming output and runs the producer no more', async () => {
    const calls: number[] = [];
    const r = await enforceOutput({ produce: (n) => (calls.push(n), n < 3 ? `bad${n}` : 'good'), check, retries: 5 });
    assert.ok(r.ok);
    assert.equal(r.value, 'good');
    assert.deepEqual(calls, [1, 2, 3]);
    assert.deepEqual(r.attempts.map((a) => a.accepted), [false, false, true]);
    assert.deepEqual(r.diagnostics.map((d) => `${d.code} ${d.severity}`), ['CONTRACT_OUTPUT_DISCARDED warning', 'CONTRACT_OUTPUT_DISCARDED warning']);
  });

  it('fails after 1 + retries attempts, reporting every violation of every attempt', async () => {
    let calls = 0;
    const r = await enforceOutput({ produce: () => `bad${++calls}`, check, retries: 2 });
    assert.equal(r.ok, false);
    assert.equal(calls, 3);
    assert.ok(!('value' in r));
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['PAYLOAD_ENUM', 'PAYLOAD_ENUM', 'PAYLOAD_ENUM', 'CONTRACT_RETRIES_EXHAUSTED']);
    assert.deepEqual(r.diagnostics.slice(0, 3).map((d) => d.message), ['attempt 1/3: got bad1', 'attempt 2/3: got bad2', 'attempt 3/3: got bad3']);
    assert.deepEqual(r.attempts.map((a) => a.diagnostics.length), [1, 1, 1]);
  });

  it('retries 0 runs once', async () => {
    let calls = 0;
    const r = await enforceOutput({ produce: () => (calls++, 'bad'), check, retries: 0 });
    assert.equal(r.ok, false);
    assert.equal(calls, 1);
  });

  it('warnings do not discard an output, and are passed on', async () => {
    const warn = diag('PAYLOAD_RULE_UNCHECKED', 'not checked', { pointer: '/script' });
    const r = await enforceOutput({ produce: () => 'x', check: async () => [warn], retries: 1 });
    assert.ok(r.ok);
    assert.deepEqual(r.diagnostics, [warn]);
  });

  it('refuses a retry count that is not a non-negative integer', async () => {
    for (const retries of [-1, 1.5, Number.NaN]) {
      await assert.rejects(enforceOutput({ produce: () => 'good', check, retries }), InternalError);
    }
  });

  it('a producer that throws stops enforcement with its error', async () => {
    await assert.rejects(
      enforceOutput({
        produce: () => {
          throw new Error('skill crashed');
        },
        check,
        retries: 3,
      }),
      /skill crashed/,
    );
  });
});
