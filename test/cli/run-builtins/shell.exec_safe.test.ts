import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings, expectSkillError } from '../../helpers/builtin-cli.js';
import type { Exec } from '../../helpers/skill-responses.js';

const ID = 'shell.exec_safe';

const NOISY = 'process.stdout.write("o".repeat(5000)); process.stderr.write("é".repeat(5000))';

describe('skillctl run shell.exec_safe', () => {
  const p = new BuiltinProject('skillctl-e2e-exec-');
  let policy: string;

  before(async () => {
    await mkdir(join(p.dir, 'app'));
    await mkdir(join(p.dir, 'other'));
    await writeFile(join(p.dir, 'app', 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node -e "console.log(6*7)"' } }));
    policy = await p.policy({
      permissions: { 'fs.read': ['app'], exec: ['npm', 'node', 'sleep', { command: 'echo', deny_args: ['-e'] }, 'rm'], env: ['HOME'] },
    });
  });

  it("runs the seed's example request (npm test) and answers with the seed's response", async () => {
    const r = await p.plain(ID, { argv: ['npm', 'test'], cwd: 'app', timeout_ms: 120000, max_output_bytes: 65536 }, { policy, env: { HOME: p.dir } });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Exec;
    assert.deepEqual(Object.keys(out).sort(), ['duration_ms', 'exit_code', 'stderr', 'stderr_truncated', 'stdout', 'stdout_truncated']);
    assert.deepEqual([out.exit_code, out.stdout_truncated, out.stderr_truncated], [0, false, false]);
    assert.match(out.stdout, /^42$/m);
    assert.ok(Number.isInteger(out.duration_ms) && out.duration_ms >= 0);
  });

  it('bounds output at max_output_bytes and time at timeout_ms, and clamps both to the policy caps', async () => {
    const cut = expectOk<Exec>(await p.run(ID, { argv: ['node', '-e', NOISY], cwd: 'app', max_output_bytes: 11 }, { policy }));
    assert.deepEqual([cut.stdout, cut.stderr, cut.stdout_truncated, cut.stderr_truncated], ['o'.repeat(11), 'é'.repeat(5), true, true]);
    // A timeout is the skill's error with its own exit class: 124, and the process group is gone.
    expectSkillError(await p.run(ID, { argv: ['sleep', '20'], cwd: 'app', timeout_ms: 300 }, { policy }), 'SKILL_TIMED_OUT', 124);

    const capped = await p.policy({ permissions: { 'fs.read': ['app'], exec: ['node', 'sleep'] }, limits: { max_output_bytes: 500, max_execution_time: '1s' } });
    const c = expectCapped<Exec>(await p.run(ID, { argv: ['node', '-e', NOISY], cwd: 'app' }, { policy: capped }), 500);
    assert.deepEqual([c.stdout_truncated, c.stderr_truncated], [true, true]);
    assert.ok(c.stdout.length > 50 && c.stderr === 'é'.repeat(c.stderr.length), JSON.stringify(c));
    const t0 = Date.now();
    const slow = await p.run(ID, { argv: ['sleep', '20'], cwd: 'app', timeout_ms: 120000 }, { policy: capped });
    assert.equal(slow.cli.code, 124);
    assert.ok(Date.now() - t0 < 10_000, 'stopped at the 1 s cap, not at timeout_ms');
  });

  it('refuses a command, an argument and a working directory outside the policy: exit 3, audited', async () => {
    // rm is in the policy but not among the commands the manifest requests.
    await expectDenied(p, await p.run(ID, { argv: ['rm', '-rf', 'app'], cwd: 'app' }, { policy }), 'exec', 'POLICY_EXEC_DENIED');
    await expectDenied(p, await p.run(ID, { argv: ['/bin/sh', '-c', 'id'], cwd: 'app' }, { policy }), 'exec', 'POLICY_EXEC_DENIED');
    await expectDenied(p, await p.run(ID, { argv: ['echo', 'hi', '-e'], cwd: 'app' }, { policy }), 'exec', 'POLICY_EXEC_ARGUMENT_DENIED');
    await expectDenied(p, await p.run(ID, { argv: ['echo', 'hi'], cwd: 'other' }, { policy }), 'fs.read', 'POLICY_PATH_DENIED');
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { cwd: 3, timeout_ms: -1 }, { policy }), ['/argv', '/cwd', '/timeout_ms']);
    await expectSchemaFindings(p, await p.run(ID, { argv: 'npm test', max_output_bytes: 'lots' }, { policy }), ['/argv', '/max_output_bytes']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 11);
  });
});
