import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

const ID = 'shell.exec_safe';
const NODE = process.execPath;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

interface Exec {
  exit_code: number;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  duration_ms: number;
}

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
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: ['npm'] }, env: { PATH, HOME: dir } });
      const out = okOutput<Exec>(await runSkill(ID, { argv: ['npm', 'test'], cwd: '.', timeout_ms: 120000, max_output_bytes: 65536 }, ctx));
      assert.equal(out.exit_code, 0);
      assert.match(out.stdout, /^42$/m);
      assert.equal(out.stdout_truncated, false);
      assert.ok(Number.isInteger(out.duration_ms) && out.duration_ms >= 0);
    });

  it('passes argv without a shell', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: ['echo'] } });
      const out = okOutput<Exec>(await runSkill(ID, { argv: ['echo', '$HOME; touch pwned', '`id`'] }, ctx));
      assert.equal(out.stdout, '$HOME; touch pwned `id`\n');
      await assert.rejects(readFile(join(dir, 'pwned')));
    });

  it('bounds stdout and stderr by max_output_bytes, with the flags set', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      const script = 'process.stdout.write("é".repeat(5000)); process.stderr.write("e".repeat(5000))';
      const out = okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script], max_output_bytes: 101 }, ctx));
      assert.equal(out.stdout, 'é'.repeat(50), 'cut on a character boundary');
      assert.equal(out.stderr, 'e'.repeat(101));
      assert.deepEqual([out.stdout_truncated, out.stderr_truncated], [true, true]);
      const capped = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] }, limits: { maxOutputBytes: 10 } });
      const c = okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, capped.ctx));
      assert.equal(c.stderr.length, 10);
    });

  it('reports exit codes and signals', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', 'process.exit(3)'] }, ctx)).exit_code, 3);
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', 'process.kill(process.pid, "SIGTERM")'] }, ctx)).exit_code, 143);
    });

  it('kills the whole process group at timeout_ms, grandchildren included', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'grandchild.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      const outcome = await runSkill(ID, { argv: [NODE, '-e', script], timeout_ms: 500 }, ctx);
      assert.equal(errorCode(outcome), 'SKILL_TIMED_OUT');
      const err = (outcome as unknown as { error: { duration_ms: number } }).error;
      assert.ok(err.duration_ms < 5000);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))), 'the grandchild was killed');
    });

  it("clamps timeout_ms to the host's time cap", async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: ['sleep'] }, limits: { timeoutMs: 300 } });
      assert.equal(errorCode(await runSkill(ID, { argv: ['sleep', '20'], timeout_ms: 100000 }, ctx)), 'SKILL_TIMED_OUT');
    });

  it('leaves nothing running in the background after the command exits', async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'bg.pid');
      const script = `const c = require('child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); c.unref(); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));`;
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] } });
      assert.equal(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, ctx)).exit_code, 0);
      assert.ok(await gone(Number(await readFile(pidFile, 'utf8'))));
    });

  it('hands the command only PATH and the variables the policy allows', async () => {
      const dir = tempDir();
      process.env.SKILLCTL_CANARY = 'ambient';
      try {
        const env = { PATH, GITHUB_TOKEN: 'ghp_secret', LANG: 'C.UTF-8' };
        const script = 'console.log(JSON.stringify(Object.keys(process.env).filter((k) => !k.startsWith("NODE_")).sort()))';
        const strict = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE] }, env });
        assert.deepEqual(JSON.parse(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, strict.ctx)).stdout), ['PATH']);
        const lang = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: [NODE], env: ['LANG'] }, env });
        assert.deepEqual(JSON.parse(okOutput<Exec>(await runSkill(ID, { argv: [NODE, '-e', script] }, lang.ctx)).stdout), ['LANG', 'PATH']);
      } finally {
        delete process.env.SKILLCTL_CANARY;
      }
    });

  it('is denied a command or a working directory the policy does not allow', async () => {
      const dir = tempDir();
      await mkdir(join(dir, 'work'));
      await mkdir(join(dir, 'work2'));
      const { ctx, gate } = fixtureContext({ cwd: dir, policy: { read: ['work'], exec: ['echo'] } });
      assert.equal(denialCode(await runSkill(ID, { argv: ['rm', '-rf', 'work'], cwd: 'work' }, ctx)), 'SKILL_NOT_ALLOWED');
      assert.equal(denialCode(await runSkill(ID, { argv: ['/bin/sh', '-c', 'id'], cwd: 'work' }, ctx)), 'SKILL_NOT_ALLOWED');
      for (const cwd of ['work2', '.', 'work/..', '/']) assert.equal(denialCode(await runSkill(ID, { argv: ['echo', 'x'], cwd }, ctx)), 'SKILL_NOT_ALLOWED', cwd);
      assert.ok(gate.calls.some((c) => c.op === 'exec' && c.target === 'rm -rf work' && !c.allowed), 'the whole argv was checked');
    });

  it('reports a command that cannot start', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: { read: ['.'], exec: ['/nonexistent/tool'] } });
      assert.equal(errorCode(await runSkill(ID, { argv: ['/nonexistent/tool'] }, ctx)), 'SKILL_EXEC_FAILED');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: [] }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: [''] }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv/0' }]);
    assert.deepEqual(await inputFindings(ID, { argv: 'npm test' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/argv' }]);
    assert.deepEqual(await inputFindings(ID, { argv: ['x'], timeout_ms: -1 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/timeout_ms' }]);
  });
});
