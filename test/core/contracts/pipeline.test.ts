// A chain of deterministic skills passing payloads through the seed 001 contracts: a skill that
// violates its output contract once is re-run and the pipeline succeeds; one that always violates
// fails after the retry limit with every violation reported.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadContractSet, type ContractSet } from '../../../src/core/contracts/index.js';
import { payload, runPipeline, STANDARD_SKILLS, type Skill } from '../../helpers/contract-pipeline.js';
import { ROOT } from '../../helpers/paths.js';

describe('contract pipeline', () => {
  let set: ContractSet;
  before(async () => {
    set = await loadContractSet({ cwd: ROOT });
  });

  it('conforming skills pass every payload through on the first attempt', async () => {
    const r = await runPipeline(set, STANDARD_SKILLS, 2);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.verdict.result, 'PASS');
    assert.deepEqual(r.steps.map((s) => `${s.skill}:${s.attempts.length}`), ['research:1', 'ctr:1', 'script:1', 'eval:1']);
  });

  it('a skill that violates its output contract once is re-run, and only its conforming output travels on', async () => {
    const violating = { ...payload('invalid', 'ctr.output.thumbnail-7-words.json') };
    violating.hooks = ['A discarded hook nobody should see', ...(violating.hooks as string[]).slice(1)];
    const flakyCtr: Skill = { ...STANDARD_SKILLS.ctr, run: (_input, attempt) => (attempt === 1 ? violating : STANDARD_SKILLS.ctr.run()) };
    const seen: unknown[] = [];
    const script: Skill = { ...STANDARD_SKILLS.script, run: (input) => (seen.push(input), STANDARD_SKILLS.script.run()) };
    const r = await runPipeline(set, { ...STANDARD_SKILLS, ctr: flakyCtr, script }, 2);
    assert.ok(r.ok, JSON.stringify(r));
    const ctr = r.steps.find((s) => s.skill === 'ctr');
    assert.deepEqual(ctr?.attempts.map((a) => a.accepted), [false, true]);
    assert.deepEqual(ctr?.attempts[0]?.diagnostics.map((d) => `${d.code}@${d.pointer ?? ''}`), ['PAYLOAD_TOO_MANY_WORDS@/thumbnail_texts/3']);
    assert.equal(seen.length, 1);
    assert.notEqual((seen[0] as { selected_hook: string }).selected_hook, 'A discarded hook nobody should see');
  });

  it('a skill that always violates fails after the retry limit, with every violation of every attempt', async () => {
    let calls = 0;
    const drifting: Skill = { ...STANDARD_SKILLS.script, run: () => (calls++, payload('invalid', 'script.output.renamed-field.json')) };
    let evalCalls = 0;
    const evaluate: Skill = { ...STANDARD_SKILLS.eval, run: () => (evalCalls++, STANDARD_SKILLS.eval.run()) };
    const r = await runPipeline(set, { ...STANDARD_SKILLS, script: drifting, eval: evaluate }, 2);
    if (r.ok) return assert.fail('the pipeline should fail');
    assert.equal(r.failedAt, 'script');
    assert.equal(calls, 3);
    assert.equal(evalCalls, 0, 'nothing downstream runs on a discarded output');
    const perAttempt = ['PAYLOAD_FIELD_MISSING@/script', 'PAYLOAD_FIELD_RENAMED@/full_script', 'PAYLOAD_FIELD_UNKNOWN@/body', 'PAYLOAD_FIELD_UNKNOWN@/opening', 'PAYLOAD_FIELD_UNKNOWN@/payoff'];
    for (const attempt of [1, 2, 3]) {
      const mine: string[] = r.diagnostics.filter((d) => d.message.startsWith(`attempt ${attempt}/3: `)).map((d) => `${d.code}@${d.pointer ?? ''}`);
      assert.deepEqual(mine.sort(), perAttempt, `attempt ${attempt}`);
    }
    assert.equal(r.diagnostics.at(-1)?.code, 'CONTRACT_RETRIES_EXHAUSTED');
  });

  it('an output that is not JSON (NaN confidence, handed over in-process) is discarded like any violation', async () => {
    const evaluate: Skill = {
      ...STANDARD_SKILLS.eval,
      run: (_input, attempt) => (attempt === 1 ? { result: 'PASS', failure_reason: null, confidence: Number.NaN } : STANDARD_SKILLS.eval.run()),
    };
    const r = await runPipeline(set, { ...STANDARD_SKILLS, eval: evaluate }, 1);
    assert.ok(r.ok);
    assert.deepEqual(r.steps.find((s) => s.skill === 'eval')?.attempts[0]?.diagnostics.map((d) => d.code), ['PAYLOAD_NOT_JSON']);
  });

  it('with no retry left, one violation fails the pipeline', async () => {
    const flakyEval: Skill = { ...STANDARD_SKILLS.eval, run: (_i, attempt) => (attempt === 1 ? payload('invalid', 'eval.output.fail-without-reason.json') : STANDARD_SKILLS.eval.run()) };
    const r = await runPipeline(set, { ...STANDARD_SKILLS, eval: flakyEval }, 0);
    assert.ok(!r.ok && r.failedAt === 'eval');
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['PAYLOAD_REQUIRED_IF', 'CONTRACT_RETRIES_EXHAUSTED']);
  });
});
