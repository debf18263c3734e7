// Threat: a hostile audit log (a cloned repository's `.skillctl/audit.jsonl`, a log from CI) makes
// `audit verify` or `audit diff` crash or run without end. Before: 200 MB of newlines aborted both
// (V8's fatal "invalid size error": the text was split into one array of 200 million lines); a
// finding for each of a million bad lines ran for minutes and gigabytes (10 MB of `x` lines: over
// two minutes and 2.5 GB, unfinished); and a record sealed with `{"toString":1}` among its
// capabilities used, beside a wasm receipt, ended verify as an internal error. Now lines are read
// one at a time, verify stops after 100 bad lines (AUDIT_VERIFY_STOPPED) and names at most 100
// unfinished runs, and a receipt's capabilities must be strings (AUDIT_RECEIPT_INCONSISTENT).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { auditLine, sealRecord, type AuditRecord, type Sealed } from '../../src/core/run/index.js';
import { skillctlAsync } from '../helpers/cli.js';
import { start } from '../helpers/audit-records.js';
import { tempDir } from '../helpers/tmp.js';

/** Generous for the bounded work, far short of what the unbounded work took. */
const WITHIN_MS = 60_000;

interface Verified {
  readonly code: number;
  readonly doc: { valid: boolean; records: number; bad_lines: number[]; head: string | null; diagnostics: { code: string; line?: number }[] };
  readonly stderr: string;
}

async function verify(file: string): Promise<Verified> {
  const r = await skillctlAsync(['audit', 'verify', '--json', file], { timeoutMs: WITHIN_MS });
  assert.notEqual(r.code, -1, `audit verify ${file} did not finish within ${WITHIN_MS} ms`);
  assert.doesNotMatch(r.stderr, /internal error|Fatal|at .*\.js:\d+/, r.stderr.slice(0, 2000));
  return { code: r.code, doc: JSON.parse(r.stdout) as Verified['doc'], stderr: r.stderr };
}

const count = (v: Verified, code: string): number => v.doc.diagnostics.filter((d) => d.code === code).length;

describe('threat: a hostile audit log crashes or holds audit verify and audit diff', () => {
  const dir = tempDir('skillctl-attack-hostile-log-');
  const file = (name: string): string => join(dir, name);

  before(() => {
    writeFileSync(file('newlines.jsonl'), '\n'.repeat(200_000_000));
    writeFileSync(file('junk.jsonl'), 'x\n'.repeat(1_000_000));
    let prev: Sealed<AuditRecord> | undefined;
    const lines: string[] = [];
    for (let i = 0; i < 100_010; i++) {
      prev = sealRecord({ ...start('t'), run_id: i.toString(16).padStart(16, '0') }, prev?.receipt_hash);
      lines.push(auditLine(prev));
    }
    writeFileSync(file('unfinished.jsonl'), lines.join(''));
    const hostile = { ...start('t'), policy: { ...start('t').policy, capabilities: { requested: [], required: [], granted: [], used: [{ toString: 1 }] } }, result: { wasm: { artifact_digest: `sha256:${'0'.repeat(64)}`, output_bytes_digest: null, caps_used: [] } } };
    writeFileSync(file('tostring.jsonl'), auditLine(sealRecord(hostile as unknown as AuditRecord)));
  });

  it('200 MB of newlines: verify stops after 100 bad lines (AUDIT_VERIFY_STOPPED), exit 1', async () => {
    const v = await verify(file('newlines.jsonl'));
    assert.equal(v.code, 1);
    assert.equal(v.doc.valid, false);
    assert.equal(v.doc.bad_lines.length, 100);
    assert.equal(count(v, 'AUDIT_LINE_MALFORMED'), 100);
    assert.deepEqual(v.doc.diagnostics.filter((d) => d.code === 'AUDIT_VERIFY_STOPPED').map((d) => d.line), [101]);
    assert.equal(v.doc.head, null, 'a verification that stopped names no head');
  });

  it('a million bad lines: the same, at once', async () => {
    const v = await verify(file('junk.jsonl'));
    assert.equal(v.code, 1);
    assert.equal(v.doc.diagnostics.length, 101);
    assert.equal(count(v, 'AUDIT_VERIFY_STOPPED'), 1);
  });

  it('100,010 runs with no end record: 100 named, one finding counts the rest (those past the 100,000 held by id only counted); the chain is intact (exit 0)', async () => {
    const v = await verify(file('unfinished.jsonl'));
    assert.equal(v.code, 0);
    assert.equal(v.doc.records, 100_010);
    assert.equal(count(v, 'AUDIT_RUN_UNFINISHED'), 101);
    assert.match(v.doc.diagnostics.at(-1)?.code === 'AUDIT_RUN_UNFINISHED' ? JSON.stringify(v.doc.diagnostics.at(-1)) : '', /99910 more runs have a start record and no end record/);
  });

  it('a record sealed with {"toString":1} among its capabilities used: AUDIT_RECEIPT_INCONSISTENT, exit 1', async () => {
    const v = await verify(file('tostring.jsonl'));
    assert.equal(v.code, 1);
    assert.deepEqual(v.doc.bad_lines, [1]);
    assert.equal(count(v, 'AUDIT_RECEIPT_INCONSISTENT'), 1);
  });

  it('audit diff over 200 MB of newlines: no such record (exit 2), no abort', async () => {
    const r = await skillctlAsync(['audit', 'diff', '--json', '--log', file('newlines.jsonl'), '1', 'aaaaaaaaaaaaaaaa'], { timeoutMs: WITHIN_MS });
    assert.notEqual(r.code, -1, 'audit diff finished');
    assert.equal(r.code, 2, r.stderr.slice(0, 2000));
    assert.deepEqual((JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code), ['AUDIT_RECORD_NOT_FOUND', 'AUDIT_RECORD_NOT_FOUND']);
  });

  it('audit diff of a record holding an unpaired surrogate: AUDIT_RECORD_TAMPERED, exit 1', async () => {
    writeFileSync(file('lone.jsonl'), `{"event":"end","fingerprints":{"args":"\\ud800"},"receipt_hash":"sha256:${'0'.repeat(64)}","run_id":"bbbbbbbbbbbbbbbb"}\n`);
    const r = await skillctlAsync(['audit', 'diff', '--json', file('lone.jsonl'), file('lone.jsonl')], { timeoutMs: WITHIN_MS });
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.deepEqual([...new Set((JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code))], ['AUDIT_RECORD_TAMPERED']);
  });
});
