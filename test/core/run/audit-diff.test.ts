// `audit diff`: picking records from a log by line, run id or file, and comparing their fingerprints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditLine, diffAuditRecords, pickRecord, sealRecord, toRecordRef, type AuditEndRecord } from '../../../src/core/run/index.js';
import { record } from '../../helpers/audit-records.js';

const D = (c: string): `sha256:${string}` => `sha256:${c.repeat(64)}`;

function withFingerprints(runId: string, result: string | null): AuditEndRecord {
  return { ...record('t', runId), fingerprints: { args: D('a'), result: result === null ? null : D(result), side_effects: D('c') } };
}

describe('audit diff', () => {
  const a = sealRecord(withFingerprints('aaaaaaaaaaaaaaaa', '1'));
  const b = sealRecord(withFingerprints('bbbbbbbbbbbbbbbb', '2'), a.receipt_hash);
  const c = sealRecord(withFingerprints('cccccccccccccccc', '1'), b.receipt_hash);
  const log = auditLine(a) + auditLine(b) + auditLine(c);

  it('reads a line number or a run id; anything else is a file', () => {
    assert.deepEqual(toRecordRef('12'), { line: 12 });
    assert.deepEqual(toRecordRef('aaaaaaaaaaaaaaaa'), { runId: 'aaaaaaaaaaaaaaaa' });
    assert.equal(toRecordRef('audit.jsonl'), undefined);
    assert.equal(toRecordRef('0'), undefined);
  });

  it('names the fingerprints that differ, and none for agreeing records', () => {
    const differ = diffAuditRecords(pickRecord(log, 'log', { line: 1 }), pickRecord(log, 'log', { runId: 'bbbbbbbbbbbbbbbb' }));
    assert.deepEqual(differ.differ, ['result']);
    assert.deepEqual(differ.diagnostics.map((d) => d.code), ['AUDIT_FINGERPRINTS_DIFFER']);
    const same = diffAuditRecords(pickRecord(log, 'log', { line: 1 }), pickRecord(log, 'log', { last: true }));
    assert.deepEqual(same.differ, []);
    assert.deepEqual(same.diagnostics, []);
    assert.equal(same.records[1]?.line, 3);
  });

  it('refuses a missing record, a line that is not one, and an edited record', () => {
    assert.equal((pickRecord(log, 'log', { line: 9 }) as { code: string }).code, 'AUDIT_RECORD_NOT_FOUND');
    assert.equal((pickRecord(log, 'log', { runId: 'dddddddddddddddd' }) as { code: string }).code, 'AUDIT_RECORD_NOT_FOUND');
    assert.equal((pickRecord('not json\n', 'log', { line: 1 }) as { code: string }).code, 'AUDIT_LINE_MALFORMED');
    const edited = log.replace(D('2'), D('1'));
    assert.equal((pickRecord(edited, 'log', { line: 2 }) as { code: string }).code, 'AUDIT_RECORD_TAMPERED');
    const d = diffAuditRecords(pickRecord(log, 'log', { line: 9 }), pickRecord(log, 'log', { line: 1 }));
    assert.deepEqual(d.diagnostics.map((x) => x.code), ['AUDIT_RECORD_NOT_FOUND']);
  });

  it('a record without fingerprints compares as all null', () => {
    const { fingerprints: _f, ...old } = record('t', 'eeeeeeeeeeeeeeee');
    void _f;
    const line = auditLine(sealRecord(old as AuditEndRecord));
    const p = pickRecord(line, 'old', { last: true });
    assert.ok(!('code' in p));
    assert.deepEqual(p.fingerprints, { args: null, result: null, side_effects: null });
  });
});
