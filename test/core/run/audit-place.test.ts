import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectWrite } from '../../../src/core/policy/project-writes.js';
import { exposedAuditLog } from '../../../src/core/run/audit-place.js';

describe('exposedAuditLog: a warning for an --audit log a skill of a project may rewrite', () => {
  const whole = { root: '/p', source: '/p/skillctl.policy.yaml', fsWrite: ['/p'] };

  it('warns for a log inside a write grant, held nowhere; a warning, not an error', () => {
    const [d] = exposedAuditLog('/p/logs/a.jsonl', projectWrite('/p/logs/a.jsonl', '/p/logs/a.jsonl', [whole]));
    assert.deepEqual(d && [d.code, d.severity], ['AUDIT_FILE_WRITABLE', 'warning']);
  });

  it("is silent for the project's .skillctl/, and for a log no grant covers", () => {
    assert.deepEqual(exposedAuditLog('/p/.skillctl/a.jsonl', projectWrite('/p/.skillctl/a.jsonl', '/p/.skillctl/a.jsonl', [whole])), []);
    assert.deepEqual(exposedAuditLog('/q/a.jsonl', projectWrite('/q/a.jsonl', '/q/a.jsonl', [whole])), []);
  });
});
