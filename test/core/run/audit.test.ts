import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { jcsDigest } from '../../../src/core/digest/index.js';
import { auditLine, openAuditLog, sealRecord, verifyAuditLog, type AuditRecord } from '../../../src/core/run/index.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

function record(target: string): AuditRecord {
  return {
    audit_version: 'skillctl.audit.v1',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:00.000Z',
    skillctl_version: '0.0.0-test',
    request: { target, origin: 'path', skill_id: 's', skill_version: '0.1.0', manifest_digest: null, content_digest: null, entrypoint_id: 'main', runtime: 'node', input_digest: null },
    policy: { source: 'default', policy_digest: null, decision: 'allow', reason: 'ok', denials: [], capabilities: { requested: [], required: [], granted: [], used: null } },
    result: { status: 'ok', exit_code: 0, duration_ms: 1, attempts: 1, sandbox: 'none', runtime_version: null, output_digest: null, truncated: { stdout: false, stderr: false }, codes: [] },
  };
}

describe('audit log', () => {
  const tmp = tempDir('skillctl-audit-');
  let dir: string;
  before(() => {
    dir = tmp;
  });

  it('receipt_hash is the JCS sha256 of the record without it', () => {
    const sealed = sealRecord(record('a'));
    const { receipt_hash, ...rest } = sealed;
    assert.equal(receipt_hash, jcsDigest(rest));
    assert.ok(auditLine(sealed).endsWith('}\n'));
    assert.equal(auditLine(sealed).split('\n').length, 2);
  });

  it('verify finds tampered and malformed lines, by line number', () => {
    const lines = ['a', 'b', 'c', 'd'].map((t) => auditLine(sealRecord(record(t))));
    lines[1] = (lines[1] as string).replace('"decision":"allow"', '"decision":"deny"');
    lines[2] = 'not json\n';
    const v = verifyAuditLog(lines.join(''), 'audit.jsonl');
    assert.equal(v.records, 4);
    assert.deepEqual(v.bad_lines, [2, 3]);
    assert.deepEqual(v.diagnostics.map((d) => [d.code, d.line]), [['AUDIT_RECORD_TAMPERED', 2], ['AUDIT_LINE_MALFORMED', 3]]);
    assert.deepEqual(verifyAuditLog('', 'x').records, 0);
    assert.deepEqual(verifyAuditLog('{"receipt_hash":"nope"}\n', 'x').diagnostics.map((d) => d.code), ['AUDIT_LINE_MALFORMED']);
  });

  it('concurrent writers never interleave their lines', async () => {
    const file = join(dir, 'concurrent', 'audit.jsonl');
    const writer = join(dir, 'writer.mjs');
    const mod = join(ROOT, 'dist', 'src', 'core', 'run', 'index.js');
    // Big records (about 64 KiB each: several pipe buffers' worth) make any interleaving visible.
    await writeFile(
      writer,
      `import { openAuditLog, sealRecord } from ${JSON.stringify(mod)};
const [file, id] = process.argv.slice(2);
const base = ${JSON.stringify(record('x'))};
const log = await openAuditLog(file);
for (let i = 0; i < 40; i++) await log.append(sealRecord({ ...base, request: { ...base.request, target: id + ':' + i + ':' + 'x'.repeat(65536) } }));
await log.close();
`,
    );
    const writers = Array.from({ length: 8 }, (_, w) =>
      new Promise<void>((resolve, reject) => {
        const p = spawn(process.execPath, [writer, file, `w${w}`], { stdio: 'inherit' });
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
      }),
    );
    await Promise.all(writers);
    const text = await readFile(file, 'utf8');
    const v = verifyAuditLog(text, file);
    assert.equal(v.records, 320);
    assert.deepEqual(v.bad_lines, []);
  });

  it('an unwritable log is refused before anything runs', async () => {
    // A path below a regular file can never be created, whoever runs the test (root included).
    await writeFile(join(dir, 'a-file'), '');
    await assert.rejects(openAuditLog(join(dir, 'a-file', 'audit.jsonl')), (err: unknown) => isSkillctlError(err) && err.code === 'AUDIT_UNWRITABLE');
  });
});
