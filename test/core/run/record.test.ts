// What a run's end record lists of its refusals: each distinct one once, at most MAX_DENIALS of
// them, and how many more there were, so that no run can make its own record (and the log) huge.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compileSchema } from '../../../src/core/json-schema/index.js';
import type { GateUse } from '../../../src/core/policy/index.js';
import { auditLine, sealRecord, verifyAuditLog, AUDIT_GENESIS } from '../../../src/core/run/index.js';
import { buildRecord, MAX_DENIALS, type RunFacts } from '../../../src/core/run/record.js';
import { ROOT } from '../../helpers/paths.js';

const refused = (reason: string): GateUse => ({ scope: 'exec', allowed: false, code: 'POLICY_EXEC_ARGUMENT_DENIED', reason });

function endOf(uses: readonly GateUse[]): ReturnType<typeof buildRecord> {
  const facts: RunFacts = { runId: '0123456789abcdef', target: 't', policySource: 'default', uses, observable: false, attempts: 1, truncated: { stdout: false, stderr: false } };
  return buildRecord(facts, 'ok', 0, [], { startedAt: 0, finishedAt: 1, durationMs: 1 }, '0.0.0-test');
}

describe('the denials of a run record', () => {
  it(`lists at most ${MAX_DENIALS} distinct refusals and counts the rest in denials_omitted`, async () => {
    // 250 distinct refusals, each asked twice: 250 distinct, 100 listed, 150 left out.
    const uses = Array.from({ length: 500 }, (_, i) => refused(`exec: argument ${(i % 250) + 1} matches none of the allowed argument patterns`));
    const end = endOf(uses);
    assert.equal(end.policy.denials.length, MAX_DENIALS);
    assert.equal(end.policy.denials_omitted, 150);
    assert.equal(end.policy.decision, 'deny');
    assert.equal(end.policy.reason, 'exec: argument 1 matches none of the allowed argument patterns');
    assert.equal(end.policy.denials.at(-1)?.reason, `exec: argument ${MAX_DENIALS} matches none of the allowed argument patterns`);
    const sealed = sealRecord(end, AUDIT_GENESIS);
    const line = auditLine(sealed);
    assert.ok(line.length < 16 * 1024, `the record is ${line.length} bytes`);
    const v = verifyAuditLog(line, 'x');
    assert.deepEqual([v.records, v.diagnostics], [1, []]);
    const compiled = await compileSchema(JSON.parse(await readFile(join(ROOT, 'schemas', 'audit-record.v2.schema.json'), 'utf8')) as unknown);
    assert.ok(!('error' in compiled));
    assert.deepEqual(compiled.check(sealed), []);
  });

  it('has no denials_omitted when nothing was left out', () => {
    const end = endOf(Array.from({ length: MAX_DENIALS }, (_, i) => refused(`exec: argument ${i + 1} reaches an option a deny_args pattern names`)));
    assert.equal(end.policy.denials.length, MAX_DENIALS);
    assert.equal('denials_omitted' in end.policy, false);
  });
});
