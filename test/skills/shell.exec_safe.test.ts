import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
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

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await sleep(20);
  return !alive(pid);
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

  it('passes argv without a shell', async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['echo'] } });
      const out = okOutput<Exec>(await runSkill(ID, { argv: ['echo', '$HOME; touch pwned', '`id`'] }, ctx));
      assert.equal(out.stdout, '$HOME; touch pwned `id`\n');
      await assert.rejects(readFile(join(dir, 'pwned')));
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

  it('kills the whole process group at timeout_ms, grandchildren included', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'grandchild.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      const outcome = await runSkill(ID, { argv: [NODE, '-e', script], timeout_ms: 500 }, ctx);
      assert.equal(errorCode(outcome), 'SKILL_TIMED_OUT');
      const err = (outcome as unknown as { error: { duration_ms: number } }).error;
      assert.ok(err.duration_ms < 5000);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))), 'the grandchild was killed');
    });

  it("clamps timeout_ms to the host's time cap", async () => {
      const dir = tempDir();
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: ['sleep'], limits: { max_execution_time: '300ms' } } });
      assert.equal(errorCode(await runSkill(ID, { argv: ['sleep', '20'], timeout_ms: 100000 }, ctx)), 'SKILL_TIMED_OUT');
    });

  it('leaves nothing running in the background after the command exits', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'bg.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); c.unref(); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));`;
      const { ctx } = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, ctx)).exit_code, 0);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))));
    });

  it('hands the command only PATH and the variables the policy allows', async () => {
      const dir = tempDir();
      process.env.SKILLCTL_CANARY = 'ambient';
      try {
        const env = { PATH, GITHUB_TOKEN: 'ghp_secret', LANG: 'C.UTF-8' };
        const script = 'console.log(JSON.stringify(Object.keys(process.env).filter((k) => !k.startsWith("NODE_")).sort()))';
        const strict = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE] }, env });
        assert.deepEqual(JSON.parse(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, strict.ctx)).stdout), ['PATH']);
        const lang = await skillContext(ID, { cwd: dir, policy: { read: ['.'], exec: [NODE], env: ['LANG'] }, env });
        assert.deepEqual(JSON.parse(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, lang.ctx)).stdout), ['LANG', 'PATH']);
      } finally {
        delete process.env.SKILLCTL_CANARY;
      }
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
