import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile, writeFile, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, it } from 'node:test';
import { lookupCommand } from '../../src/core/fs/find-command.js';
import type { RunResult } from '../../src/core/run/index.js';
import { shellExecSafe } from '../../src/skills/shell.exec_safe.js';
import { ROOT } from '../helpers/paths.js';
import { processesWith } from '../helpers/procs.js';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import { engine, errorCodes, policyFrom } from '../helpers/run.js';
import type { Exec } from '../helpers/skill-responses.js';

const ID = 'shell.exec_safe';
// By name: the manifest requests `node`, and the policy's entry must resolve to the same file.
const NODE = 'node';
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Running (a zombie waiting for a reaper counts as gone: it runs nothing). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100 && !done(); i++) await sleep(20);
  return done();
}

async function which(command: string): Promise<string> {
  const found = await lookupCommand(command, PATH);
  if (!found.ok) throw new Error(`${command} is ${found.reason}`);
  return found.path;
}

function gone(pid: number): Promise<boolean> {
  return until(() => !alive(pid));
}

describe('shell.exec_safe', () => {
  it("runs the seed's example (npm test) and returns the seed's response", async () => {
      const dir = tempDir();
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node -e "console.log(6*7)"' } }));
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['npm'] }, env: { PATH, HOME: dir } });
      const out = okOutput<Exec>(await runSkill(ID, { argv: ['npm', 'test'], cwd: '.', timeout_ms: 120000, max_output_bytes: 65536 }, ctx));
      assert.equal(out.exit_code, 0);
      assert.match(out.stdout, /^42$/m);
      assert.equal(out.stdout_truncated, false);
      assert.ok(Number.isInteger(out.duration_ms) && out.duration_ms >= 0);
    });

  it('bounds stdout and stderr by max_output_bytes, with the flags set', async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      const script = 'process.stdout.write("é".repeat(5000)); process.stderr.write("e".repeat(5000))';
      const out = okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script], max_output_bytes: 101 }, ctx));
      assert.equal(out.stdout, 'é'.repeat(50), 'cut on a character boundary');
      assert.equal(out.stderr, 'e'.repeat(101));
      assert.deepEqual([out.stdout_truncated, out.stderr_truncated], [true, true]);
      // Clamped to the host's cap, and then cut further so that the whole response fits it.
      const capped = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE], limits: { max_output_bytes: 300 } } });
      const c = okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, capped.ctx));
      assert.deepEqual([c.stdout_truncated, c.stderr_truncated], [true, true]);
      assert.ok(c.stderr.length > 50 && c.stdout === 'é'.repeat(c.stdout.length), JSON.stringify(c));
      assert.ok(Buffer.byteLength(JSON.stringify(c)) <= 300);
    });

  it('reports exit codes and signals', async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', 'process.exit(3)'] }, ctx)).exit_code, 3);
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', 'process.kill(process.pid, "SIGTERM")'] }, ctx)).exit_code, 143);
    });

  it('kills the whole process group at timeout_ms, grandchildren included (--sandbox none)', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'grandchild.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'], exec: [NODE] }, sandbox: 'none' });
      const outcome = await runSkill(ID, { argv: [NODE, '-e', script], timeout_ms: 500 }, ctx);
      assert.equal(errorCode(outcome), 'SKILL_TIMED_OUT');
      const err = (outcome as unknown as { error: { duration_ms: number } }).error;
      assert.ok(err.duration_ms < 5000);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))), 'the grandchild was killed');
    });

  it('kills everything the command started at timeout_ms inside bubblewrap too', async () => {
      const dir = tempDir();
      // Pids inside the sandbox are its own: the grandchild is found by its command line.
      const script = "require('child_process').spawn('sleep', ['313.381'], { stdio: 'ignore' }); setInterval(() => {}, 1000);";
      const { ctx, confined } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] }, sandbox: 'bwrap' });
      const outcome = await runSkill(ID, { argv: [NODE, '-e', script], timeout_ms: 800 }, ctx);
      assert.equal(errorCode(outcome), 'SKILL_TIMED_OUT');
      assert.deepEqual(confined.map((c) => c.sandbox), ['bwrap']);
      assert.ok(await until(() => processesWith('sleep 313.381').length === 0), 'the grandchild was killed');
    });

  it("clamps timeout_ms to the host's time cap", async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['sleep'], limits: { max_execution_time: '300ms' } } });
      assert.equal(errorCode(await runSkill(ID, { argv: ['sleep', '20'], timeout_ms: 100000 }, ctx)), 'SKILL_TIMED_OUT');
    });

  it('leaves nothing running in the background after the command exits (--sandbox none)', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'bg.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); c.unref(); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));`;
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], write: ['.'], exec: [NODE] }, sandbox: 'none' });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, ctx)).exit_code, 0);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))));
    });

  it('leaves nothing running in the background after the command exits inside bubblewrap', async () => {
      const dir = tempDir();
      const script = "require('child_process').spawn('setsid', ['sleep', '313.382'], { stdio: 'ignore', detached: true }).unref();";
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] }, sandbox: 'bwrap' });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, ctx)).exit_code, 0);
      assert.ok(await until(() => processesWith('sleep 313.382').length === 0));
    });

  it('is denied a command or a working directory the policy does not allow', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'work'));
      await mkdir(join(dir, 'work2'));
      const { ctx, gate } = await skillContext(ID, { cwd: dir, policy: { read: ['work'], exec: [{ command: 'echo', deny_args: ['-e'] }, 'rm'] } });
      // rm is on the policy's list but not among the commands the manifest requests.
      assert.equal(denialCode(await runSkill(ID, { argv: ['rm', '-rf', 'work'], cwd: 'work' }, ctx)), 'POLICY_EXEC_DENIED');
      assert.equal(denialCode(await runSkill(ID, { argv: ['/bin/sh', '-c', 'id'], cwd: 'work' }, ctx)), 'POLICY_EXEC_DENIED');
      assert.equal(denialCode(await runSkill(ID, { argv: ['echo', 'x', '-e'], cwd: 'work' }, ctx)), 'POLICY_EXEC_ARGUMENT_DENIED', 'the whole argv is checked');
      for (const cwd of ['work2', '.', '/']) assert.equal(denialCode(await runSkill(ID, { argv: ['echo', 'x'], cwd }, ctx)), 'POLICY_PATH_DENIED', cwd);
      assert.equal(denialCode(await runSkill(ID, { argv: ['echo', 'x'], cwd: 'work/..' }, ctx)), 'POLICY_PATH_INVALID');
      assert.ok(gate.uses.every((u) => u.scope !== 'exec' || u.allowed === (u.code === undefined)));
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: ['echo', 'x'], cwd: 'work' }, ctx)).stdout, 'x\n');
    });

  it('reports a command that cannot start', async () => {
      const dir = tempDir();
      // A granted `make` whose interpreter does not exist: the policy allows it, exec fails.
      await mkdir(join(dir, 'bin'));
      await writeFile(join(dir, 'bin', 'make'), '#!/nonexistent/interpreter\n', { mode: 0o755 });
      const env = { PATH: `${join(dir, 'bin')}:${PATH}` };
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['make'] }, env });
      assert.equal(errorCode(await runSkill(ID, { argv: ['make'] }, ctx)), 'SKILL_EXEC_FAILED');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: [] }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: [''] }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv/0' }]);
    assert.deepEqual(await inputFindings(ID, { argv: 'npm test' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: ['x'], timeout_ms: -1 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/timeout_ms' }]);
  });
});

// What the command cannot read, write or reach outside its grants: test/security/ (filesystem,
// audit-tampering, self-escalation, network).
describe('shell.exec_safe through the engine: the command sees only what the policy grants', () => {
  const tmp = tempDir('skillctl-exec-sandbox-');
  let root: string;
  let proj: string;
  let policyFile: string;
  let audit: string;
  const EXEC = ['sort', 'cat', 'ls', 'echo', NODE];

  before(async () => {
    root = realpathSync(tmp);
    proj = join(root, 'proj');
    await mkdir(join(proj, 'out', 'log'), { recursive: true });
    await mkdir(join(proj, 'ro'));
    await mkdir(join(root, 'outside'));
    await writeFile(join(root, 'outside', 'secret.txt'), 'the secret\n');
    await writeFile(join(proj, 'a.txt'), 'b\na\n');
    await writeFile(join(proj, 'ro', 'keep.txt'), 'kept\n');
    policyFile = join(proj, 'out', 'skillctl.policy.json');
    await writeFile(policyFile, '{"version":1}\n');
    audit = join(proj, 'out', 'log', 'runs.jsonl');
    await writeFile(audit, '');
  });

  /** shell.exec_safe run by the engine from the default bundle, the policy and audit log protected. */
  function exec(request: Record<string, unknown>, permissions: Record<string, unknown>, sandbox?: 'auto' | 'bwrap' | 'none', env: Record<string, string> = { PATH }, extra: Record<string, unknown> = {}): Promise<RunResult> {
    return engine({
      cwd: proj,
      target: ID,
      input: request,
      builtins: [shellExecSafe],
      env,
      policy: policyFrom({ permissions: { exec: EXEC, ...permissions }, ...extra }, proj),
      ...(sandbox !== undefined ? { request: { sandbox } } : {}),
      options: { resolve: { packageRoot: ROOT }, protectedPaths: [policyFile, audit] },
    });
  }
  const out = (r: RunResult): Exec => {
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    return r.output as Exec;
  };

  it('reads inside fs.read, writes inside fs.write, and cannot write inside a read-only grant', async () => {
    const perms = { 'fs.read': ['.'], 'fs.write': ['out'] };
    assert.equal(out(await exec({ argv: ['cat', 'ro/keep.txt'] }, perms)).stdout, 'kept\n');
    assert.equal(out(await exec({ argv: ['sort', '-o', 'out/sorted.txt', 'a.txt'] }, perms)).exit_code, 0);
    assert.equal(await readFile(join(proj, 'out', 'sorted.txt'), 'utf8'), 'a\nb\n');
    // The working directory is the requested one, writable when a write grant covers it.
    assert.equal(out(await exec({ argv: ['sort', '-o', 'here.txt', '../a.txt'], cwd: 'out' }, perms)).exit_code, 0);
    assert.equal(await readFile(join(proj, 'out', 'here.txt'), 'utf8'), 'a\nb\n');
    const ro = out(await exec({ argv: ['sort', '-o', 'ro/keep.txt', 'a.txt'] }, perms));
    assert.notEqual(ro.exit_code, 0);
    assert.match(ro.stderr, /Read-only file system/);
    assert.equal(await readFile(join(proj, 'ro', 'keep.txt'), 'utf8'), 'kept\n');
  });

  it('--sandbox none runs the command unconfined, as process runtimes do; the record says so', async () => {
    const r = await exec({ argv: ['cat', join(root, 'outside', 'secret.txt')] }, { 'fs.read': ['.'] }, 'none');
    assert.equal(out(r).stdout, 'the secret\n');
    assert.equal(r.record.result.sandbox, 'none');
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'RUN_UNSANDBOXED'), []);
  });

  it('without bubblewrap: auto refuses unless the policy accepts it (then RUN_UNSANDBOXED), bwrap refuses before the command starts', async () => {
    // A PATH holding the commands but no bwrap.
    const bin = join(root, 'nobwrap');
    await mkdir(bin, { recursive: true });
    for (const c of ['sort', 'cat']) await symlink(await which(c), join(bin, c)).catch(() => undefined);
    // The run's PATH is the policy's.
    const env = { PATH };
    const refused = await exec({ argv: ['cat', join(root, 'outside', 'secret.txt')] }, { 'fs.read': ['.'] }, 'auto', env, { path: [bin] });
    assert.deepEqual([refused.status, refused.exitCode, errorCodes(refused)], ['unavailable', 2, ['RUN_SANDBOX_UNAVAILABLE']]);
    assert.match(refused.diagnostics.find((d) => d.code === 'RUN_SANDBOX_UNAVAILABLE')?.hint ?? '', /allow_unsandboxed/);
    const auto = await exec({ argv: ['cat', join(root, 'outside', 'secret.txt')] }, { 'fs.read': ['.'] }, 'auto', env, { allow_unsandboxed: true, path: [bin] });
    assert.equal(out(auto).stdout, 'the secret\n');
    assert.equal(auto.record.result.sandbox, 'none');
    assert.deepEqual(auto.diagnostics.filter((d) => d.code === 'RUN_UNSANDBOXED').map((d) => d.severity), ['warning']);
    const strict = await exec({ argv: ['sort', '-o', join(root, 'outside', 'strict.txt'), 'a.txt'] }, { 'fs.read': ['.'] }, 'bwrap', env, { path: [bin] });
    assert.deepEqual([strict.status, strict.exitCode, errorCodes(strict)], ['unavailable', 2, ['RUN_SANDBOX_UNAVAILABLE']]);
    assert.equal(existsSync(join(root, 'outside', 'strict.txt')), false);
  });

  it('reports the command\'s own exit code and signal, not bubblewrap\'s', async () => {
    const perms = { 'fs.read': ['.'] };
    assert.equal(out(await exec({ argv: [NODE, '-e', 'process.exit(3)'] }, perms)).exit_code, 3);
    assert.equal(out(await exec({ argv: [NODE, '-e', 'process.kill(process.pid, "SIGTERM")'] }, perms)).exit_code, 143);
  });

  it('times out and kills what the command started, inside bubblewrap', async () => {
    const script = "require('child_process').spawn('sleep', ['313.383'], { stdio: 'ignore' }); setInterval(() => {}, 1000);";
    const r = await exec({ argv: [NODE, '-e', script], timeout_ms: 800 }, { 'fs.read': ['.'] });
    assert.deepEqual([r.status, r.exitCode, (r.error as { code: string }).code], ['skill_error', 124, 'SKILL_TIMED_OUT']);
    assert.equal(r.record.result.sandbox, 'bwrap');
    assert.ok(await until(() => processesWith('sleep 313.383').length === 0));
  });
});
