// The audit log: sealed, chained records; old unchained records and a run that never finished;
// writers that never interleave or break the chain. What verify catches when someone edits,
// deletes, reorders, inserts or cuts records: test/security/audit-tampering.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { jcsDigest } from '../../../src/core/digest/index.js';
import { AUDIT_GENESIS, auditLine, openAuditLog, sealRecord, verifyAuditLog } from '../../../src/core/run/index.js';
import { codes, record, start } from '../../helpers/audit-records.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { testFileLock } from '../../helpers/file-lock.js';

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
