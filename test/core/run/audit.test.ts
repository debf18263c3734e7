// The audit log: sealed, chained records; what verify catches (an edit, a deletion, a reordering,
// an insertion, a torn tail, a cut-off end against a kept head, a run that never finished), and
// writers that never interleave or break the chain.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { jcsDigest } from '../../../src/core/digest/index.js';
import { AUDIT_GENESIS, auditLine, openAuditLog, sealRecord, verifyAuditLog, type AuditEndRecord, type AuditStartRecord } from '../../../src/core/run/index.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { testFileLock } from '../../helpers/file-lock.js';

function record(target: string, runId = 'r-' + target): AuditEndRecord {
  return {
    audit_version: 'skillctl.audit.v2',
    event: 'end',
    run_id: runId,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:00.000Z',
    skillctl_version: '0.0.0-test',
    request: { target, origin: 'path', skill_id: 's', skill_version: '0.1.0', manifest_digest: null, content_digest: null, entrypoint_id: 'main', runtime: 'node', input_digest: null },
    policy: { source: 'default', policy_digest: null, decision: 'allow', reason: 'ok', denials: [], capabilities: { requested: [], required: [], granted: [], used: null } },
    result: { status: 'ok', exit_code: 0, duration_ms: 1, attempts: 1, sandbox: 'none', runtime_version: null, output_digest: null, truncated: { stdout: false, stderr: false }, codes: [], caps: null },
  };
}

function start(target: string): AuditStartRecord {
  const { result: _result, finished_at: _finished, event: _event, ...rest } = record(target);
  void _result;
  void _finished;
  void _event;
  return { ...rest, event: 'start', finished_at: null, result: null };
}

/** Lines of a chained log of `targets`, as a writer would have sealed them. */
function chain(targets: readonly string[]): string[] {
  let prev = AUDIT_GENESIS;
  return targets.map((t) => {
    const sealed = sealRecord(record(t), prev);
    prev = sealed.receipt_hash;
    return auditLine(sealed);
  });
}

function codes(text: string, head?: string): (string | number | undefined)[][] {
  return verifyAuditLog(text, 'audit.jsonl', head !== undefined ? { head } : {}).diagnostics.map((d) => [d.code, d.line]);
}

describe('audit log', () => {
  const tmp = tempDir('skillctl-audit-');
  let dir: string;
  before(() => {
    dir = tmp;
  });

  it('receipt_hash is the JCS sha256 of the record and its link, without the receipt', () => {
    const sealed = sealRecord(record('a'));
    const { receipt_hash, ...rest } = sealed;
    assert.equal(receipt_hash, jcsDigest(rest));
    assert.equal(sealed.prev_hash, AUDIT_GENESIS);
    assert.ok(auditLine(sealed).endsWith('}\n'));
    assert.equal(auditLine(sealed).split('\n').length, 2);
  });

  it('verify finds tampered, non-canonical and malformed lines, by line number', () => {
    const lines = chain(['a', 'b', 'c', 'd', 'e']);
    lines[1] = (lines[1] as string).replace('"decision":"allow"', '"decision":"deny"');
    lines[2] = 'not json\n';
    // The same record with a key given twice: JSON.parse keeps the last, the bytes are not what was written.
    lines[3] = (lines[3] as string).replace('{"audit_version"', '{"event":"start","audit_version"');
    const v = verifyAuditLog(lines.join(''), 'audit.jsonl');
    assert.equal(v.records, 5);
    assert.deepEqual(v.bad_lines, [2, 3, 4]);
    assert.deepEqual(codes(lines.join('')), [
      ['AUDIT_RECORD_TAMPERED', 2],
      ['AUDIT_LINE_MALFORMED', 3],
      ['AUDIT_RECORD_TAMPERED', 4],
    ]);
    assert.deepEqual(verifyAuditLog('', 'x').records, 0);
    assert.deepEqual(codes('{"receipt_hash":"nope"}\n'), [['AUDIT_LINE_MALFORMED', 1]]);
  });

  it('a deleted, reordered or inserted record breaks the chain at the line after it', () => {
    const lines = chain(['a', 'b', 'c', 'd']);
    assert.deepEqual(codes(lines.join('')), []);
    assert.deepEqual(codes([lines[0], lines[2], lines[3]].join('')), [['AUDIT_CHAIN_BROKEN', 2]], 'deleted');
    assert.deepEqual(codes([lines[0], lines[2], lines[1], lines[3]].join('')), [['AUDIT_CHAIN_BROKEN', 2], ['AUDIT_CHAIN_BROKEN', 3], ['AUDIT_CHAIN_BROKEN', 4]], 'reordered');
    const forged = auditLine(sealRecord(record('forged'), lines[1] !== undefined ? verifyAuditLog(lines.slice(0, 2).join(''), 'x').head : AUDIT_GENESIS));
    assert.deepEqual(codes([lines[0], lines[1], forged, lines[2], lines[3]].join('')), [['AUDIT_CHAIN_BROKEN', 4]], 'inserted');
    assert.deepEqual(codes([lines[1], lines[2]].join('')), [['AUDIT_CHAIN_BROKEN', 1]], 'the first records removed');
  });

  it('a cut-off end shows only against a head kept elsewhere; a torn last line is named as such', () => {
    const lines = chain(['a', 'b', 'c']);
    const head = verifyAuditLog(lines.join(''), 'x').head as string;
    assert.deepEqual(codes(lines.join(''), head), []);
    assert.deepEqual(codes(lines.slice(0, 2).join('')), [], 'the file alone cannot tell');
    assert.deepEqual(codes(lines.slice(0, 2).join(''), head), [['AUDIT_HEAD_MISMATCH', undefined]]);
    const torn = lines.join('') + (lines[0] as string).slice(0, 40);
    assert.deepEqual(codes(torn, head), [['AUDIT_LINE_TORN', 4]]);
    assert.equal(verifyAuditLog(torn, 'x').diagnostics[0]?.severity, 'warning');
  });

  it('old unchained records still verify, with a warning; a run that started and never ended is named', () => {
    const v1 = JSON.stringify({ audit_version: 'skillctl.audit.v1', target: 'old' });
    const old = `${JSON.stringify({ audit_version: 'skillctl.audit.v1', target: 'old', receipt_hash: jcsDigest(JSON.parse(v1)) })}\n`;
    const canonicalOld = auditLine(JSON.parse(old) as never);
    const next = auditLine(sealRecord(record('new'), verifyAuditLog(canonicalOld, 'x').head));
    assert.deepEqual(codes(canonicalOld + next), [['AUDIT_UNCHAINED', undefined]]);
    const begun = auditLine(sealRecord(start('lost'), verifyAuditLog(next, 'x').head));
    assert.deepEqual(codes(next + begun), [['AUDIT_CHAIN_BROKEN', 1], ['AUDIT_RUN_UNFINISHED', 2]]);
  });

  it('appends chain to the last record; a torn tail left by a dead writer is cut off first', async () => {
    const file = join(dir, 'torn', 'audit.jsonl');
    const log = await openAuditLog(file, testFileLock());
    const a = await log.append(start('x'));
    const b = await log.append(record('x', a.run_id));
    assert.equal(b.prev_hash, a.receipt_hash);
    await appendFile(file, '{"audit_version":"skillctl.audit.v2","event":"st');
    const c = await log.append(record('y'));
    await log.close();
    assert.equal(c.prev_hash, b.receipt_hash);
    const text = await readFile(file, 'utf8');
    assert.equal(text.split('\n').length, 4);
    assert.deepEqual(verifyAuditLog(text, file, { head: c.receipt_hash }).diagnostics, []);
  });

  it('two processes appending 500 records each leave one intact chain, lines never interleaved', async () => {
    const file = join(dir, 'concurrent', 'audit.jsonl');
    const writer = join(dir, 'writer.mjs');
    const mod = join(ROOT, 'dist', 'src', 'core', 'run', 'index.js');
    const lockMod = join(ROOT, 'dist', 'test', 'helpers', 'file-lock.js');
    // Big records (about 16 KiB each: several pipe buffers' worth) make any interleaving visible.
    await writeFile(
      writer,
      `import { openAuditLog } from ${JSON.stringify(mod)};
import { testFileLock } from ${JSON.stringify(lockMod)};
const [file, id] = process.argv.slice(2);
const base = ${JSON.stringify(record('x'))};
const log = await openAuditLog(file, testFileLock());
for (let i = 0; i < 500; i++) await log.append({ ...base, run_id: id + i, request: { ...base.request, target: id + ':' + i + ':' + 'x'.repeat(16384) } });
await log.close();
`,
    );
    const writers = Array.from({ length: 2 }, (_, w) =>
      new Promise<void>((resolve, reject) => {
        const p = spawn(process.execPath, [writer, file, `w${w}`], { stdio: 'inherit' });
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
      }),
    );
    await Promise.all(writers);
    const v = verifyAuditLog(await readFile(file, 'utf8'), file);
    assert.equal(v.records, 1000);
    assert.deepEqual(v.bad_lines, []);
    assert.deepEqual(v.diagnostics, []);
  });

  it('an unwritable log is refused before anything runs', async () => {
    // A path below a regular file can never be created, whoever runs the test (root included).
    await writeFile(join(dir, 'a-file'), '');
    await assert.rejects(openAuditLog(join(dir, 'a-file', 'audit.jsonl'), testFileLock()), (err: unknown) => isSkillctlError(err) && err.code === 'AUDIT_UNWRITABLE');
  });
});
