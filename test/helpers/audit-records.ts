/** Audit records as a writer would seal them, for tests of the log and of what verify catches. */
import { AUDIT_GENESIS, auditLine, sealRecord, verifyAuditLog, type AuditEndRecord, type AuditStartRecord } from '../../src/core/run/index.js';

/** A finished run's record of `target`. */
export function record(target: string, runId = 'r-' + target): AuditEndRecord {
  return {
    audit_version: 'skillctl.audit.v2',
    event: 'end',
    run_id: runId,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:00.000Z',
    skillctl_version: '0.0.0-test',
    request: { target, origin: 'path', skill_id: 's', skill_version: '0.1.0', manifest_digest: null, content_digest: null, entrypoint_id: 'main', runtime: 'node', input_digest: null },
    policy: { source: 'default', policy_digest: null, decision: 'allow', reason: 'ok', denials: [], capabilities: { requested: [], required: [], granted: [], used: null } },
    fingerprints: { args: null, result: null, side_effects: null },
    result: { status: 'ok', exit_code: 0, duration_ms: 1, attempts: 1, sandbox: 'none', runtime_version: null, output_digest: null, truncated: { stdout: false, stderr: false }, codes: [], caps: null },
  };
}

/** The start record of a run of `target`. */
export function start(target: string): AuditStartRecord {
  const { result: _result, finished_at: _finished, event: _event, ...rest } = record(target);
  void _result;
  void _finished;
  void _event;
  return { ...rest, event: 'start', finished_at: null, result: null };
}

/** Lines of a chained log of `targets`, as a writer would have sealed them. */
export function chain(targets: readonly string[]): string[] {
  let prev = AUDIT_GENESIS;
  return targets.map((t) => {
    const sealed = sealRecord(record(t), prev);
    prev = sealed.receipt_hash;
    return auditLine(sealed);
  });
}

/** What verify finds in `text` (against `head`, when given): code and line of each finding. */
export function codes(text: string, head?: string): (string | number | undefined)[][] {
  return verifyAuditLog(text, 'audit.jsonl', head !== undefined ? { head } : {}).diagnostics.map((d) => [d.code, d.line]);
}
