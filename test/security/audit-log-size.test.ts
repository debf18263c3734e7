// Threat: a skill grows its own audit log past what `audit verify` reads, so that nothing in it is
// checked. Before the stop of 2026-12-01, verify and diff read a log whole, up to 256 MiB, and past
// it refused it (INPUT_UNREADABLE, exit 2) without checking a record: a manifest's requested
// permissions are kept whole in each record, so a skill whose manifest lists thousands of them made
// every run's record as large, and enough runs put the log out of reach. Now a log is streamed and
// verified line by line, whatever its size; only a line is bounded (64 MiB, far past any record
// skillctl writes), and a longer one is a bad line, the chain broken after it.
import assert from 'node:assert/strict';
import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { before, describe, it } from 'node:test';
import { AUDIT_GENESIS, auditLine, sealRecord, type AuditEndRecord } from '../../src/core/run/index.js';
import { record } from '../helpers/audit-records.js';
import { json, skillctlAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

interface Verified {
  valid: boolean;
  records: number;
  head: string | null;
  diagnostics: { code: string; line?: number }[];
}

/**
 * Five chained records of 55 MB each: 275 MB, past the 256 MiB once read whole. A record cuts
 * each string at 4096 characters; a manifest's requested permissions are kept whole, so each
 * record requests 13,750 permissions of 4,000 characters.
 */
const RECORDS = 5;
const REQUESTED = Array.from({ length: 13_750 }, (_, i) => `fs.read:/${String(i).padStart(3990, 'x')}`);

describe('threat: an audit log past what audit verify reads', () => {
  const dir = tempDir('skillctl-attack-log-size-');
  const big = join(dir, 'big.jsonl');
  const heads: string[] = [];

  before(async () => {
    const out = createWriteStream(big);
    let prev = AUDIT_GENESIS;
    for (let i = 0; i < RECORDS; i++) {
      const r = record('big', `r-${i}`);
      const big: AuditEndRecord = { ...r, policy: { ...r.policy, capabilities: { ...r.policy.capabilities, requested: REQUESTED } } };
      const sealed = sealRecord(big, prev);
      prev = sealed.receipt_hash;
      heads.push(prev);
      if (!out.write(auditLine(sealed))) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    assert.ok(statSync(big).size > 256 * 1024 ** 2, `the log is ${statSync(big).size} bytes`);
  });

  it('a log of 275 MB is verified whole: every record read, its head given (exit 0)', async () => {
    const r = await skillctlAsync(['audit', 'verify', '--json', big], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    const v = json<Verified>(r);
    assert.deepEqual({ valid: v.valid, records: v.records, head: v.head, codes: v.diagnostics.map((d) => d.code) }, { valid: true, records: RECORDS, head: heads.at(-1), codes: [] });
  });

  it('audit diff picks a record past the first 256 MiB (exit 0: the same fingerprints)', async () => {
    const r = await skillctlAsync(['audit', 'diff', '--json', '--log', big, '1', String(RECORDS)], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      json<{ records: { line: number }[] }>(r).records.map((x) => x.line),
      [1, RECORDS],
    );
  });

  it('a line past 64 MiB is a bad line, not held, and the record after it no longer follows the chain (exit 1)', async () => {
    const file = join(dir, 'long-line.jsonl');
    const out = createWriteStream(file);
    out.write(Buffer.alloc(64 * 1024 * 1024 + 1, 0x78));
    out.write('\n');
    out.end(auditLine(sealRecord(record('after'), AUDIT_GENESIS)));
    await finished(out);
    const r = await skillctlAsync(['audit', 'verify', '--json', file], { timeoutMs: 120_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      json<Verified>(r).diagnostics.map((d) => [d.code, d.line]),
      [
        ['AUDIT_LINE_MALFORMED', 1],
        ['AUDIT_CHAIN_BROKEN', 2],
      ],
    );
  });
});
