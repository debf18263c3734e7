import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyAuditLog } from '../../src/core/run/index.js';
import { leftIn, tempDir } from '../helpers/tmp.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctl } from '../helpers/cli.js';
import { BIN } from '../helpers/paths.js';
import { makeProject, removeDir } from '../helpers/project.js';
import { addPdfNotes } from '../helpers/skill-md.js';

interface RunDoc {
  ok: boolean;
  status: string;
  exit_code: number;
  output: unknown;
  error: unknown;
  policy: { source: string; decision: string };
  audit: { file: string; receipt_hash: string } | null;
  diagnostics: { code: string; severity: string }[];
}

const OK = { type: 'object', required: ['ok'], properties: { ok: { type: 'string' } } };
const ECHO = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const i=JSON.parse(s);process.stdout.write(JSON.stringify({ok:String(i.path??'')+'|'+Object.keys(process.env).filter((k)=>k!=='PWD').sort().join(',')}))});\n";

describe('skillctl run', () => {
  const tmp = tempDir('skillctl-cli-run-');
  let project: string;
  const audit = (): string => join(project, '.skillctl', 'audit.jsonl');
  const lines = async (): Promise<Record<string, unknown>[]> => (await readFile(audit(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    project = realpathSync(tmp);
    // A project root: the top of a git work tree (a policy file alone never makes one).
    await mkdir(join(project, '.git'));
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  env: [HOME]\n');
    await writeBundle(join(project, 'echo'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, requested_permissions: { env: ['HOME'] }, required_environment_variables: ['HOME'] })],
      files: { 'main.js': ECHO },
    });
    await writeBundle(join(project, 'writer'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, requested_permissions: { 'fs.write': ['out'] }, required_permissions: { 'fs.write': ['out'] } })],
      files: { 'main.js': ECHO },
    });
    await mkdir(join(project, 'sub'));
  });

  it('prints the accepted output on stdout and appends a verifiable record in the project root', async () => {
    const r = skillctl(['run', './echo', '--input', '-'], { cwd: project, input: '{"path":"a"}', env: { HOME: '/home/t' } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { ok: 'a|HOME,LC_ALL,PATH,PYTHONIOENCODING,SKILLCTL_CWD,TZ' });
    // A start record before the skill ran, then its end, chained to it.
    const [start, end] = await lines();
    assert.deepEqual([start?.event, start?.result, end?.event, end?.run_id], ['start', null, 'end', start?.run_id]);
    assert.equal((end?.result as { exit_code: number }).exit_code, 0);
    assert.equal(end?.prev_hash, start?.receipt_hash);
    assert.deepEqual(verifyAuditLog(await readFile(audit(), 'utf8'), audit()).diagnostics, []);
  });

  it('--json: one document with the output, the policy in force and the receipt', () => {
    const r = skillctl(['run', '../echo', '--json'], { cwd: join(project, 'sub') });
    assert.equal(r.code, 0, r.stderr);
    const doc = json<RunDoc>(r);
    assert.equal(doc.ok, true);
    assert.deepEqual(doc.output, { ok: '|HOME,LC_ALL,PATH,PYTHONIOENCODING,SKILLCTL_CWD,TZ' });
    assert.equal(doc.policy.source, join(project, 'skillctl.policy.yaml'));
    assert.equal(doc.audit?.file, audit());
    assert.match(doc.audit?.receipt_hash ?? '', /^sha256:/);
  });

  it('an invalid bundle: --json and the audit record carry the loader error validate gives; a valid run has none', async () => {
    // python without runtime_version: ERR_RUNTIME_UNPINNED, about entrypoint main.
    await writeBundle(join(project, 'unpinned'), { entrypoints: [entry({ runtime: 'python', command: 'python3 main.py', output_schema: OK })], files: { 'main.py': '' } });
    const validated = json<{ results: { loader_error: unknown }[] }>(skillctl(['validate', './unpinned', '--json'], { cwd: project })).results[0]?.loader_error;
    assert.equal((validated as { error_code?: string } | undefined)?.error_code, 'ERR_RUNTIME_UNPINNED');
    const r = skillctl(['run', './unpinned', '--json'], { cwd: project });
    assert.equal(r.code, 1, r.stdout);
    const doc = json<RunDoc & { loader_error: unknown }>(r);
    assert.equal(doc.status, 'bundle_invalid');
    assert.deepEqual(doc.loader_error, validated);
    const end = (await lines()).at(-1) as { result: { status: string; loader_error?: unknown } };
    assert.equal(end.result.status, 'bundle_invalid');
    assert.deepEqual(end.result.loader_error, validated);
    assert.deepEqual(verifyAuditLog(await readFile(audit(), 'utf8'), audit()).diagnostics, []);
    const ok = skillctl(['run', './echo', '--json', '--no-audit'], { cwd: project, env: { HOME: '/h' } });
    assert.equal(json<{ loader_error: unknown }>(ok).loader_error, null);
  });

  it('runs a packed archive, named on the command line or pinned in the lock, and leaves no unpacked copy', async () => {
    const scratch = join(project, 'scratch');
    await mkdir(scratch);
    const env = { TMPDIR: scratch };
    const packed = skillctl(['pack', './echo', '--out', 'dist'], { cwd: project });
    assert.equal(packed.code, 0, packed.stderr);
    const byPath = skillctl(['run', 'dist/test.skill-0.1.0.tgz', '--json', '--no-audit'], { cwd: project, env });
    assert.equal(byPath.code, 0, byPath.stderr);
    assert.deepEqual(json<RunDoc>(byPath).output, { ok: '|HOME,LC_ALL,PATH,PYTHONIOENCODING,SKILLCTL_CWD,TZ' });
    assert.ok(json<RunDoc>(byPath).diagnostics.some((d) => d.code === 'RUN_UNPINNED'));
    const pinned = skillctl(['pin', 'dist/test.skill-0.1.0.tgz'], { cwd: project });
    assert.equal(pinned.code, 0, pinned.stderr);
    const byId = skillctl(['run', 'test.skill', '--json', '--no-audit'], { cwd: project, env });
    assert.equal(byId.code, 0, byId.stderr);
    const doc = json<RunDoc & { skill: { origin: string } }>(byId);
    assert.equal(doc.skill.origin, 'lock');
    assert.deepEqual(doc.diagnostics.filter((d) => d.code === 'RUN_UNPINNED'), []);
    assert.deepEqual(await leftIn(scratch), []);
  });

  it('an archive too deep to unpack under TMPDIR exits 2 with the file that does not fit, and leaves nothing there', async () => {
    // A 4,040-byte path, within the archive bound: under a 200-byte TMPDIR it passes PATH_MAX.
    const long = `${`${'a'.repeat(255)}/`.repeat(15)}${'f'.repeat(200)}`;
    await writeBundle(join(project, 'deep'), {
      skill_id: 'test.deep',
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK })],
      files: { 'main.js': ECHO, [long]: 'deep' },
    });
    const packed = skillctl(['pack', './deep', '--out', 'dist'], { cwd: project });
    assert.equal(packed.code, 0, packed.stderr);
    const scratch = join(project, 'c'.repeat(200));
    await mkdir(scratch);
    const r = skillctl(['run', 'dist/test.deep-0.1.0.tgz', '--json', '--no-audit'], { cwd: project, env: { TMPDIR: scratch } });
    assert.equal(r.code, 2, r.stderr);
    const doc = json<{ diagnostics: { code: string; file?: string }[] }>(r);
    assert.deepEqual(doc.diagnostics.map((d) => d.code), ['RUN_BUNDLE_INVALID', 'ARCHIVE_TARGET_INVALID']);
    assert.equal(doc.diagnostics.find((d) => d.code === 'ARCHIVE_TARGET_INVALID')?.file, `dist/test.deep-0.1.0.tgz/${long}`);
    assert.deepEqual(await leftIn(scratch), []);
    const human = skillctl(['run', 'dist/test.deep-0.1.0.tgz', '--no-audit'], { cwd: project, env: { TMPDIR: scratch } });
    assert.equal(human.code, 2);
    assert.match(human.stderr, /ARCHIVE_TARGET_INVALID/);
    assert.doesNotMatch(human.stderr, /\n\s+at /, 'no stack trace');
  });

  it('ambient credentials never reach the skill', () => {
    const r = skillctl(['run', './echo', '--json', '--no-audit'], { cwd: project, env: { AWS_SECRET_ACCESS_KEY: 'a', GITHUB_TOKEN: 'g', NPM_TOKEN: 'n', HOME: '/h' } });
    assert.deepEqual(json<RunDoc>(r).output, { ok: '|HOME,LC_ALL,PATH,PYTHONIOENCODING,SKILLCTL_CWD,TZ' });
  });

  it('a refused run exits 3 and is recorded with the permission and why', async () => {
    const before = (await lines()).length;
    const r = skillctl(['run', './writer', '--json'], { cwd: project });
    assert.equal(r.code, 3);
    const doc = json<RunDoc>(r);
    assert.equal(doc.status, 'denied');
    assert.equal(doc.policy.decision, 'deny');
    const after = await lines();
    assert.equal(after.length, before + 1);
    const rec = after[after.length - 1] as { policy: { denials: { scope: string; value: string }[] }; result: { exit_code: number } };
    assert.deepEqual(rec.policy.denials.map((d) => [d.scope, d.value]), [['fs.write', 'out']]);
    assert.equal(rec.result.exit_code, 3);
  });

  it('--no-audit writes nothing; --audit FILE writes there', async () => {
    const other = join(project, 'logs', 'mine.jsonl');
    assert.equal(skillctl(['run', './echo', '--audit', other], { cwd: project }).code, 0);
    assert.deepEqual((await readFile(other, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { event: string }).event), ['start', 'end']);
    const fresh = tempDir('skillctl-cli-noaudit-');
    await writeBundle(join(fresh, 'echo'), { entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK })], files: { 'main.js': ECHO } });
    assert.equal(skillctl(['run', './echo', '--no-audit'], { cwd: fresh }).code, 0);
    assert.equal(existsSync(join(fresh, '.skillctl')), false);
  });

  it('a full disk under the audit log (a link to /dev/full): AUDIT_UNWRITABLE, exit 2, not INTERNAL', async () => {
    const logs = join(project, 'full');
    await mkdir(logs);
    await symlink('/dev/full', join(logs, 'log.jsonl'));
    const r = skillctl(['run', './echo', '--input', '-', '--audit', join(logs, 'log.jsonl')], { cwd: project, input: '{}' });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /AUDIT_UNWRITABLE: cannot append to the audit log .*: ENOSPC/);
  });

  it('usage errors exit 2: bad --retries, missing policy file, bad --sandbox, unknown skill, invalid input', () => {
    assert.equal(skillctl(['run', './echo', '--retries', '4', '--json'], { cwd: project }).code, 2);
    const missing = skillctl(['run', './echo', '--policy', 'nope.yaml', '--json'], { cwd: project });
    assert.equal(missing.code, 2);
    assert.equal(json<{ error: { code: string } }>(missing).error.code, 'INPUT_NOT_FOUND');
    assert.equal(skillctl(['run', './echo', '--sandbox', 'docker'], { cwd: project }).code, 2);
    const unknown = skillctl(['run', 'no.such.skill', '--json'], { cwd: project });
    assert.equal(unknown.code, 2);
    assert.ok(json<RunDoc>(unknown).diagnostics.some((d) => d.code === 'RUN_SKILL_NOT_FOUND'));
    assert.equal(skillctl(['run', './echo', '--input', '-'], { cwd: project, input: '[1,' }).code, 2);
  });

  it('an invalid policy stops the run (exit 2) and the record says so', async () => {
    await writeFile(join(project, 'bad.policy.yaml'), 'version: 1\npermissions:\n  fs.everything: [/]\n');
    const r = skillctl(['run', './echo', '--policy', 'bad.policy.yaml', '--json'], { cwd: project });
    assert.equal(r.code, 2);
    const codes = json<RunDoc>(r).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('POLICY_INVALID') && codes.includes('SCHEMA_UNKNOWN_FIELD'));
    const last = (await lines()).pop() as { policy: { decision: string }; result: { status: string } };
    assert.equal(last.policy.decision, 'deny');
    assert.equal(last.result.status, 'policy_invalid');
  });

  it('concurrent runs append whole lines, in one chain', async () => {
    const file = join(project, 'concurrent.jsonl');
    const runs = Array.from({ length: 6 }, () =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'run', './echo', '--audit', file], { cwd: project, stdio: 'ignore' });
        p.on('exit', (code) => resolve(code ?? -1));
      }),
    );
    assert.deepEqual(await Promise.all(runs), [0, 0, 0, 0, 0, 0]);
    const v = verifyAuditLog(await readFile(file, 'utf8'), file);
    assert.equal(v.records, 12);
    assert.deepEqual(v.diagnostics, []);
  });
});

describe('skillctl run: payload contracts', () => {
  const tmp3 = tempDir('skillctl-cli-contracts-');
  let dir: string;
  before(async () => {
    dir = realpathSync(tmp3);
    const main = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const i=JSON.parse(s);process.stdout.write(JSON.stringify(i.verdict==='fail-without-reason'?{result:'FAIL',failure_reason:null,confidence:0.5}:{result:'PASS',failure_reason:null,confidence:0.9}))});";
    await writeBundle(join(dir, 'judge'), {
      entrypoints: [
        entry({
          runtime: 'node',
          runtime_version: process.version.slice(1),
          command: 'node main.js',
          input_schema: { type: 'object', properties: { verdict: { type: 'string' } } },
          args_fingerprint_fields: ['input.verdict'],
          output_schema: { $ref: 'https://unpkg.com/skillctl/schemas/contracts/eval.output.v1.schema.json' },
          result_fingerprint_fields: ['result.result'],
        }),
      ],
      files: { 'main.js': main },
    });
  });

  it('an output_schema that $refs a built-in contract is checked with its keywords: a violation is discarded (exit 4)', () => {
    const ok = skillctl(['run', './judge', '--input', '-', '--json', '--no-audit'], { cwd: dir, input: '{"verdict":"pass"}' });
    assert.equal(ok.code, 0, ok.stdout);
    assert.deepEqual(json<RunDoc>(ok).output, { confidence: 0.9, failure_reason: null, result: 'PASS' });
    const bad = skillctl(['run', './judge', '--input', '-', '--json', '--no-audit'], { cwd: dir, input: '{"verdict":"fail-without-reason"}' });
    assert.equal(bad.code, 4, bad.stdout);
    const doc = json<RunDoc>(bad);
    assert.equal(doc.output, null);
    assert.ok(doc.diagnostics.some((d) => d.code === 'RUN_OUTPUT_INVALID'));
  });
});

describe('skillctl run: a skill cannot widen its own grant', () => {
  const tmp1 = tempDir('skillctl-cli-protect-');
  let dir: string;
  before(async () => {
    dir = realpathSync(tmp1);
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
    const main = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const fs=require('fs');const r=[];for(const p of JSON.parse(s).path.split(',')){try{fs.appendFileSync(p,'x');r.push('wrote')}catch(e){r.push(e.code)}}process.stdout.write(JSON.stringify({ok:r.join(',')}))});";
    await writeBundle(join(dir, 'tamper'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK, requested_permissions: { 'fs.read': ['.'], 'fs.write': ['.'] } })],
      files: { 'main.js': main },
    });
    const first = skillctl(['run', './tamper', '--input', '-'], { cwd: dir, input: JSON.stringify({ path: join(dir, 'scratch.txt') }) });
    assert.equal(first.code, 0, first.stderr);
  });

  it('under bubblewrap the policy file and the audit log are read-only, the rest of the grant is writable', async () => {
    const paths = [join(dir, 'skillctl.policy.yaml'), join(dir, '.skillctl', 'audit.jsonl'), join(dir, 'scratch.txt')].join(',');
    const r = skillctl(['run', './tamper', '--sandbox', 'bwrap', '--input', '-', '--json'], { cwd: dir, input: JSON.stringify({ path: paths }) });
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(json<RunDoc>(r).output, { ok: 'EROFS,EROFS,wrote' });
    assert.equal(await readFile(join(dir, 'skillctl.policy.yaml'), 'utf8'), 'version: 1\npermissions:\n  fs.read: [.]\n  fs.write: [.]\n');
    assert.deepEqual(verifyAuditLog(await readFile(join(dir, '.skillctl', 'audit.jsonl'), 'utf8'), 'a').bad_lines, []);
  });
});

describe('skillctl audit verify', () => {
  const tmp2 = tempDir('skillctl-cli-audit-');
  let dir: string;
  before(async () => {
    dir = tmp2;
    await writeBundle(join(dir, 'echo'), { entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', output_schema: OK })], files: { 'main.js': ECHO } });
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, 'skillctl.policy.yaml'), 'version: 1\n');
    for (let i = 0; i < 3; i++) assert.equal(skillctl(['run', './echo'], { cwd: dir }).code, 0);
  });

  it('passes an intact log (default location in the project root)', () => {
    const r = skillctl(['audit', 'verify', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout);
    const doc = json<{ records: number; valid: boolean; bad_lines: number[] }>(r);
    assert.deepEqual([doc.records, doc.valid, doc.bad_lines], [6, true, []]);
  });

  it('reports a deleted record where the chain breaks, and a log cut short against its head', async () => {
    const file = join(dir, '.skillctl', 'audit.jsonl');
    const parts = (await readFile(file, 'utf8')).split('\n');
    const deleted = [...parts.slice(0, 2), ...parts.slice(3)].join('\n');
    const r = skillctl(['audit', 'verify', '-', '--json'], { cwd: dir, input: deleted });
    assert.equal(r.code, 1);
    assert.deepEqual(json<{ diagnostics: { code: string; line?: number }[] }>(r).diagnostics.map((d) => [d.code, d.line]), [['AUDIT_CHAIN_BROKEN', 3]]);
    const head = json<{ head: string }>(skillctl(['audit', 'verify', '--json'], { cwd: dir })).head;
    assert.equal(skillctl(['audit', 'verify', '--head', head], { cwd: dir }).code, 0);
    const short = skillctl(['audit', 'verify', '-', '--head', head, '--json'], { cwd: dir, input: parts.slice(0, 4).join('\n') + '\n' });
    assert.equal(short.code, 1);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(short).diagnostics.map((d) => d.code), ['AUDIT_HEAD_MISMATCH']);
    assert.equal(skillctl(['audit', 'verify', '--head', 'sha256:nope'], { cwd: dir }).code, 2);
  });

  it('reports a tampered line and exits 1', async () => {
    const file = join(dir, '.skillctl', 'audit.jsonl');
    const text = await readFile(file, 'utf8');
    const parts = text.split('\n');
    parts[1] = (parts[1] as string).replace('"exit_code":0', '"exit_code":1');
    await writeFile(join(dir, 'tampered.jsonl'), parts.join('\n'));
    const r = skillctl(['audit', 'verify', 'tampered.jsonl', '--json'], { cwd: dir });
    assert.equal(r.code, 1);
    const doc = json<{ bad_lines: number[]; diagnostics: { code: string; line: number }[] }>(r);
    assert.deepEqual(doc.bad_lines, [2]);
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.line]), [['AUDIT_RECORD_TAMPERED', 2]]);
    assert.match(parts[1] as string, /"event":"end"/);
    const human = skillctl(['audit', 'verify', '-'], { cwd: dir, input: parts.join('\n') });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /AUDIT_RECORD_TAMPERED/);
  });

  it('a missing log is a usage error', () => {
    assert.equal(skillctl(['audit', 'verify', 'missing.jsonl'], { cwd: dir }).code, 2);
  });
});

describe('skillctl run of an Agent Skills pin', () => {
  let root: string;
  before(async () => {
    root = await makeProject();
    await addPdfNotes(root);
  });
  after(async () => removeDir(root));

  it('exit 1, RUN_BUNDLE_INVALID with the hint to convert it, nothing run', () => {
    assert.equal(skillctl(['pin', 'manifests/pdf-notes'], { cwd: root }).code, 0);
    const r = skillctl(['run', 'pdf-notes', '--json', '--no-audit'], { cwd: root });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const doc = json<RunDoc & { diagnostics: { code: string; hint?: string }[] }>(r);
    assert.equal(doc.status, 'bundle_invalid');
    assert.deepEqual(doc.diagnostics.map((d) => d.code), ['RUN_BUNDLE_INVALID']);
    assert.match(doc.diagnostics[0]?.hint ?? '', /skillctl convert manifests\/pdf-notes/);
  });
});
