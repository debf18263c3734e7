// The engine with in-process fixture built-ins: contracts, retries, limits, policy refusals and
// the audit record each outcome produces.
import { realpathSync } from 'node:fs';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { compileSchema } from '../../../src/core/json-schema/index.js';
import { LOADER_PRECEDENCE } from '../../../src/core/manifest/index.js';
import { verifyAuditLog, auditLine, type BuiltinSkill, type RunResult } from '../../../src/core/run/index.js';
import { ROOT } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { engine, errorCodes, policyFrom } from '../../helpers/run.js';

const OUTPUT = { type: 'object', required: ['ok'], additionalProperties: false, properties: { ok: { type: 'string' } } };

function skill(id: string, run: BuiltinSkill['run']): BuiltinSkill {
  return { id, run };
}

const read = skill('test.read', async (input, ctx) => {
  const d = await ctx.policy.checkRead((input as { path: string }).path);
  if (!d.allowed) return { status: 'denied', decision: d, operation: 'read' };
  return { status: 'ok', output: { ok: await readFile(d.resolved, 'utf8') } };
});

let calls = 0;
const flaky = skill('test.flaky', async () => {
  calls++;
  return { status: 'ok', output: calls % 2 === 1 ? { ok: 42 } : { ok: 'second time' } };
});
const wrong = skill('test.wrong', async () => ({ status: 'ok', output: { ok: 1, extra: true } }));
const fails = skill('test.fails', async (input) => ({
  status: 'error',
  error: (input as { path?: string }).path === 'bad' ? { code: 7 as unknown as string, message: 'x' } : { code: 'BINARY_FILE', message: 'not text' },
}));
const hangs = skill('test.hangs', () => new Promise(() => undefined));
// NaN has no JSON form (RFC 8785 refuses it).
const nonJson = skill('test.nonjson', async () => ({ status: 'ok', output: { ok: Number.NaN } }));
const big = skill('test.big', async () => ({ status: 'ok', output: { ok: 'x'.repeat(10_000) } }));
const envs = skill('test.env', async (_input, ctx) => ({ status: 'ok', output: { ok: Object.keys(ctx.env).sort().join(',') } }));
const throws = skill('test.throws', async () => {
  throw new Error('boom');
});

const ALL = [read, flaky, wrong, fails, hangs, nonJson, big, envs, throws];

describe('run engine with built-in skills', () => {
  const tmp = tempDir('skillctl-engine-');
  let root: string;
  const bundle = (name: string): string => join(root, 'bundles', name);

  before(async () => {
    root = realpathSync(tmp);
    await writeFile(join(root, 'notes.txt'), 'hello');
    const mk = (name: string, over: Record<string, unknown> = {}) =>
      writeBundle(bundle(name), { skill_id: name, entrypoints: [entry({ command: `builtin:${name}`, output_schema: OUTPUT, ...over })] });
    await mk('test.read', { requested_permissions: { 'fs.read': ['.'] }, required_permissions: { 'fs.read': ['.'] } });
    await mk('test.flaky');
    await mk('test.wrong');
    await mk('test.fails');
    await mk('test.hangs', { runtime_limits: { max_execution_time: '200ms' } });
    await mk('test.big', { runtime_limits: { max_output_bytes: 1000 } });
    await mk('test.env', { requested_permissions: { env: ['HOME', 'GITHUB_TOKEN'] }, required_environment_variables: ['HOME'] });
    await mk('test.throws');
    await mk('test.nonjson');
    // python without runtime_version: the bundle does not validate, and nothing of it runs.
    await writeBundle(bundle('test.unpinned'), { skill_id: 'test.unpinned', entrypoints: [entry({ runtime: 'python', command: 'python3 main.py', output_schema: OUTPUT })], files: { 'main.py': '' } });
    await mk('test.needs-write', { command: 'builtin:test.read', requested_permissions: { 'fs.write': ['out'] }, required_permissions: { 'fs.write': ['out'] } });
    await mk('test.missing');
    await mk('test.needs-env', { command: 'builtin:test.env', requested_permissions: { env: ['HOME'] }, required_environment_variables: ['HOME'] });
    // sha256 of "/h", the value this manifest was written for.
    const home = { HOME: 'sha256:141582aa3785bb7d6cfe7b16dc441f4a7a9db343fdea989a0475ec30a5b243c7' };
    await mk('test.fingerprinted', { command: 'builtin:test.env', requested_permissions: { env: ['HOME'] }, required_environment_variables: ['HOME'], value_fingerprints: home });
    await mk('test.fingerprinted-strict', {
      command: 'builtin:test.env',
      requested_permissions: { env: ['HOME'] },
      required_environment_variables: ['HOME'],
      value_fingerprints: home,
      requested_determinism_profile: 'strict',
    });
    await writeBundle(bundle('two'), {
      skill_id: 'test.two',
      entrypoints: [entry({ entrypoint_id: 'a', command: 'builtin:test.env', output_schema: OUTPUT }), entry({ entrypoint_id: 'b', tool_profile_id: 'test.tool-b', command: 'builtin:test.wrong', output_schema: OUTPUT })],
    });
  });

  it('runs a built-in and accepts a conforming output; the record says what was used', async () => {
    const r = await engine({ cwd: root, target: bundle('test.read'), input: { path: 'notes.txt' }, builtins: ALL });
    assert.equal(r.status, 'ok');
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.output, { ok: 'hello' });
    const rec = r.record;
    assert.equal(rec.policy.decision, 'allow');
    assert.deepEqual(rec.policy.capabilities.used, [`fs.read:${root}`]);
    assert.deepEqual(rec.policy.capabilities.requested, ['fs.read:.']);
    assert.equal(rec.result.sandbox, 'in-process');
    assert.match(rec.result.output_digest ?? '', /^sha256:/);
    assert.equal(rec.request.skill_id, 'test.read');
    assert.equal(rec.policy.source, 'default');
    assert.deepEqual(verifyAuditLog(auditLine(rec), 'x').bad_lines, []);
  });

  it('gives a byte-identical payload for the same input and bundle', async () => {
    const a = await engine({ cwd: root, target: bundle('test.read'), input: { path: 'notes.txt' }, builtins: ALL });
    const b = await engine({ cwd: root, target: bundle('test.read'), input: { path: 'notes.txt' }, builtins: ALL });
    assert.equal(JSON.stringify(a.output), JSON.stringify(b.output));
    assert.equal(a.record.result.output_digest, b.record.result.output_digest);
  });

  it('refuses an operation outside the grant while running: exit 3, recorded without the value', async () => {
    const r = await engine({ cwd: root, target: bundle('test.read'), input: { path: '../../etc/passwd' }, builtins: ALL });
    assert.equal(r.status, 'denied');
    assert.equal(r.exitCode, 3);
    assert.equal(r.output, undefined);
    assert.equal(r.record.policy.decision, 'deny');
    assert.deepEqual(r.record.policy.denials.map((d) => [d.scope, d.code, d.value]), [['fs.read', 'POLICY_PATH_INVALID', undefined]]);
    assert.ok(!auditLine(r.record).includes('passwd'));
  });

  it('refuses a run whose required permission the policy does not grant, before it executes', async () => {
    const r = await engine({ cwd: root, target: bundle('test.needs-write'), input: { path: 'notes.txt' }, builtins: ALL });
    assert.equal(r.status, 'denied');
    assert.equal(r.exitCode, 3);
    assert.deepEqual(errorCodes(r), ['POLICY_PERMISSION_DENIED']);
    assert.equal(r.record.result.attempts, 0);
    assert.deepEqual(r.record.policy.denials.map((d) => [d.scope, d.value]), [['fs.write', 'out']]);
    assert.match(r.record.policy.reason, /fs\.write "out"/);
    assert.equal(r.diagnostics.find((d) => d.code === 'POLICY_PERMISSION_DENIED')?.pointer, '/entrypoints/0/required_permissions/fs.write');
  });

  it('checks the input against input_schema before running: exit 2', async () => {
    const r = await engine({ cwd: root, target: bundle('test.read'), input: { path: 5 }, builtins: ALL });
    assert.equal(r.status, 'input_invalid');
    assert.equal(r.exitCode, 2);
    assert.deepEqual(errorCodes(r), ['RUN_INPUT_INVALID', 'SCHEMA_VALUE_INVALID']);
    assert.equal(r.diagnostics.find((d) => d.code === 'SCHEMA_VALUE_INVALID')?.pointer, '/path');
    const notJson = await engine({ cwd: root, target: bundle('test.read'), builtins: ALL, request: { input: Buffer.from('{"path": ') } });
    assert.equal(notJson.exitCode, 2);
    assert.equal(notJson.record.request.input_digest, null);
  });

  it('discards an output that violates output_schema: exit 4, nothing returned', async () => {
    const r = await engine({ cwd: root, target: bundle('test.wrong'), builtins: ALL });
    assert.equal(r.status, 'output_invalid');
    assert.equal(r.exitCode, 4);
    assert.equal(r.output, undefined);
    assert.equal(r.record.result.output_digest, null);
    assert.deepEqual(errorCodes(r), ['RUN_OUTPUT_INVALID', 'SCHEMA_VALUE_INVALID']);
  });

  it('a value with no JSON form is RUN_OUTPUT_NOT_JSON, not an output_schema violation: exit 4', async () => {
    const r = await engine({ cwd: root, target: bundle('test.nonjson'), builtins: ALL });
    assert.deepEqual([r.status, r.exitCode, errorCodes(r)], ['output_invalid', 4, ['RUN_OUTPUT_NOT_JSON']]);
    assert.deepEqual(r.record.result.codes, ['RUN_OUTPUT_NOT_JSON']);
  });

  it('an invalid bundle is not run; its record carries the loader error, and no other record does', async () => {
    const r = await engine({ cwd: root, target: bundle('test.unpinned'), builtins: ALL });
    assert.deepEqual([r.status, r.exitCode, r.record.result.attempts], ['bundle_invalid', 1, 0]);
    const le = r.record.result.loader_error;
    assert.equal(le?.skill_id, 'test.unpinned');
    assert.equal(le?.error_code, 'ERR_RUNTIME_UNPINNED');
    assert.equal(le?.entrypoint_id, 'main');
    const ok = await engine({ cwd: root, target: bundle('test.read'), input: { path: 'notes.txt' }, builtins: ALL });
    assert.equal('loader_error' in ok.record.result, false);
  });

  it('with retries, runs again after a violation and accepts the conforming output', async () => {
    calls = 0;
    const r = await engine({ cwd: root, target: bundle('test.flaky'), builtins: ALL, request: { retries: 2 } });
    assert.equal(r.status, 'ok');
    assert.deepEqual(r.output, { ok: 'second time' });
    assert.equal(r.record.result.attempts, 2);
    assert.ok(r.diagnostics.some((d) => d.code === 'RUN_OUTPUT_DISCARDED' && d.severity === 'warning'));
    // The discarded output's findings say which attempt they are about.
    const about = r.diagnostics.filter((d) => d.file === 'output' && d.severity === 'warning');
    assert.ok(about.length > 0);
    for (const d of about) assert.match(d.message, /^attempt 1: /);
    calls = 0;
    const none = await engine({ cwd: root, target: bundle('test.flaky'), builtins: ALL });
    assert.equal(none.exitCode, 4);
    const capped = await engine({ cwd: root, target: bundle('test.wrong'), builtins: ALL, request: { retries: 99 } });
    assert.equal(capped.record.result.attempts, 4, 'at most 3 retries');
  });

  it('returns an error the skill reports when it conforms to error_schema (exit 1), discards it otherwise (exit 4)', async () => {
    const ok = await engine({ cwd: root, target: bundle('test.fails'), builtins: ALL });
    assert.equal(ok.status, 'skill_error');
    assert.equal(ok.exitCode, 1);
    assert.deepEqual(ok.error, { code: 'BINARY_FILE', message: 'not text' });
    const bad = await engine({ cwd: root, target: bundle('test.fails'), input: { path: 'bad' }, builtins: ALL });
    assert.equal(bad.status, 'error_invalid');
    assert.equal(bad.exitCode, 4);
    assert.equal(bad.error, undefined);
  });

  it('aborts a built-in past its time budget: exit 124', async () => {
    const r = await engine({ cwd: root, target: bundle('test.hangs'), builtins: ALL });
    assert.equal(r.status, 'timeout');
    assert.equal(r.exitCode, 124);
    assert.equal(r.record.result.exit_code, 124);
  });

  it('discards an output larger than max_output_bytes', async () => {
    const r = await engine({ cwd: root, target: bundle('test.big'), builtins: ALL });
    assert.equal(r.status, 'output_limit');
    assert.equal(r.exitCode, 1);
    assert.equal(r.record.result.truncated.stdout, true);
  });

  it('gives a built-in only PATH and the granted variables that are set', async () => {
    const env = { PATH: '/usr/bin:/bin', HOME: '/home/x', AWS_SECRET_ACCESS_KEY: 'aws', GITHUB_TOKEN: 'gh', NPM_TOKEN: 'npm' };
    const r = await engine({ cwd: root, target: bundle('test.env'), builtins: ALL, env, policy: policyFrom({ permissions: { env: ['HOME'] } }, root) });
    assert.deepEqual(r.output, { ok: 'HOME,LC_ALL,PATH,PYTHONIOENCODING,TZ' });
    assert.ok(!auditLine(r.record).includes('/home/x'));
  });

  it('reports a thrown exception as a skill failure and an unknown builtin as unavailable', async () => {
    assert.equal((await engine({ cwd: root, target: bundle('test.throws'), builtins: ALL })).exitCode, 1);
    const r = await engine({ cwd: root, target: bundle('test.missing'), builtins: ALL });
    assert.deepEqual(errorCodes(r), ['RUN_BUILTIN_UNKNOWN']);
  });

  it('checks value_fingerprints before the run: a warning, or under strict determinism a refusal', async () => {
    const granted = policyFrom({ permissions: { 'fs.read': ['.'], env: ['HOME'] } }, root);
    const codes = (r: Awaited<ReturnType<typeof engine>>): string[] => r.diagnostics.filter((d) => d.code === 'RUN_VALUE_FINGERPRINT_MISMATCH').map((d) => `${d.severity}: ${d.message}`);
    const right = await engine({ cwd: root, target: bundle('test.fingerprinted'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin', HOME: '/h' } });
    assert.equal(right.status, 'ok');
    assert.deepEqual(codes(right), []);
    const wrong = await engine({ cwd: root, target: bundle('test.fingerprinted'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin', HOME: '/elsewhere' } });
    assert.equal(wrong.status, 'ok');
    assert.deepEqual(codes(wrong), ['warning: HOME has a value whose sha256 differs from its fingerprint']);
    const strict = await engine({ cwd: root, target: bundle('test.fingerprinted-strict'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin', HOME: '/elsewhere' } });
    assert.equal(strict.status, 'unavailable');
    assert.equal(strict.exitCode, 2);
    assert.deepEqual(codes(strict), ['error: HOME has a value whose sha256 differs from its fingerprint']);
    assert.equal(strict.output, undefined);
    const strictRight = await engine({ cwd: root, target: bundle('test.fingerprinted-strict'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin', HOME: '/h' } });
    assert.equal(strictRight.status, 'ok');
  });

  it('chooses the entrypoint: the only one, main, or the one named', async () => {
    assert.deepEqual(errorCodes(await engine({ cwd: root, target: bundle('two'), builtins: ALL })), ['RUN_ENTRYPOINT_REQUIRED']);
    const missing = await engine({ cwd: root, target: bundle('two'), builtins: ALL, request: { entrypoint: 'c' } });
    assert.deepEqual(errorCodes(missing), ['RUN_ENTRYPOINT_NOT_FOUND']);
    assert.equal(missing.exitCode, 2);
    const a = await engine({ cwd: root, target: bundle('two'), builtins: ALL, request: { entrypoint: 'a' } });
    assert.equal(a.status, 'ok');
    assert.equal(a.record.request.entrypoint_id, 'a');
  });

  it('a required environment variable must be granted and set', async () => {
    const granted = policyFrom({ permissions: { 'fs.read': ['.'], env: ['HOME'] } }, root);
    const unset = await engine({ cwd: root, target: bundle('test.needs-env'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin' } });
    assert.deepEqual(errorCodes(unset), ['RUN_ENV_MISSING']);
    assert.equal(unset.exitCode, 2);
    const notGranted = await engine({ cwd: root, target: bundle('test.needs-env'), builtins: ALL, env: { PATH: '/usr/bin', HOME: '/h' } });
    assert.deepEqual(errorCodes(notGranted), ['POLICY_PERMISSION_DENIED']);
    assert.equal(notGranted.exitCode, 3);
    const ok = await engine({ cwd: root, target: bundle('test.needs-env'), builtins: ALL, policy: granted, env: { PATH: '/usr/bin', HOME: '/h' } });
    assert.deepEqual(ok.output, { ok: 'HOME,LC_ALL,PATH,PYTHONIOENCODING,TZ' });
  });

  it('every record conforms to schemas/audit-record.v2.schema.json', async () => {
    const schema = JSON.parse(await readFile(join(ROOT, 'schemas', 'audit-record.v2.schema.json'), 'utf8')) as unknown;
    const compiled = await compileSchema(schema);
    assert.ok(!('error' in compiled));
    const runs: RunResult[] = [
      await engine({ cwd: root, target: bundle('test.read'), input: { path: 'notes.txt' }, builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.read'), input: { path: '/etc/passwd' }, builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.needs-write'), builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.wrong'), builtins: ALL, request: { retries: 1 } }),
      await engine({ cwd: root, target: bundle('test.hangs'), builtins: ALL }),
      await engine({ cwd: root, target: 'no.such.skill', builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.unpinned'), builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.nonjson'), builtins: ALL }),
      await engine({ cwd: root, target: bundle('test.read'), builtins: ALL, options: { policy: { invalid: [], source: 'broken.yaml' } } }),
    ];
    for (const r of runs) assert.deepEqual(compiled.check(r.record), [], `${r.status}: ${auditLine(r.record)}`);
    // The schema's loader error names the codes the loader has, no more, no fewer.
    const defs = (schema as { $defs: { loaderError: { properties: { error_code: { enum: string[] } } } } }).$defs;
    assert.deepEqual(defs.loaderError.properties.error_code.enum, [...LOADER_PRECEDENCE]);
  });
});
