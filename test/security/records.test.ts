// Threat: a run that ends badly leaves no trace, or leaves the skill running. Every run that
// reaches its skill writes a start record before the skill runs; SIGINT and SIGTERM stop the skill,
// remove the run's temporary directories, record the run as interrupted and exit 130 or 143; a
// skillctl killed outright takes its skill with it, and its start record names the run.
// A container runs in its engine's daemon, not under the engine's client that skillctl starts:
// killing the client leaves the container running, with its write grants mounted, past the
// run's time limit and past the checks that remove what a program planted once it ends. An
// interrupted run had it go on so (the daemon was told to remove it only after a time or output
// limit); the engine is now told to remove it (`rm -f`) whenever the client is killed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { verifyAuditLog, type AuditRecord } from '../../src/core/run/index.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { skillctl } from '../helpers/cli.js';
import { BIN } from '../helpers/paths.js';
import { processesWith } from '../helpers/procs.js';
import { leftIn, tempDir } from '../helpers/tmp.js';

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await check()) return true;
  return check();
};

describe('threat: a run that ends badly (signals, a killed skillctl)', () => {
  const tmp = tempDir('skillctl-records-');
  let root: string;
  let scratch: string;
  const audit = (): string => join(root, '.skillctl', 'audit.jsonl');
  const records = async (): Promise<AuditRecord[]> => (await readFile(audit(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);

  before(async () => {
    root = realpathSync(tmp);
    scratch = join(root, 'scratch');
    await mkdir(join(root, '.git'));
    await mkdir(scratch);
    await writeFile(join(root, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [sleep]\n');
    await writeBundle(join(root, 'sleeper'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js', runtime_limits: { max_execution_time: 120 }, requested_permissions: { exec: ['sleep'] } })],
      files: { 'main.js': "require('child_process').spawn('sleep', ['271.828'], { stdio: 'ignore' }); setTimeout(() => process.stdout.write('{}'), 120000);" },
    });
    // A container skill, and an engine on its policy's path that answers as a running daemon and
    // notes each command: its `run` lasts as a container's client does, until the container ends.
    const engine = join(root, 'enginebin');
    await mkdir(engine);
    await writeFile(join(engine, 'docker'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${join(root, 'engine-calls')}'\n[ "$1" = version ] && { echo 27.0.0; exit 0; }\n[ "$1" = run ] && exec /bin/sleep 273.141\nexit 0\n`, { mode: 0o755 });
    await writeFile(join(root, 'container.policy.yaml'), `version: 1\npath: [${engine}, /usr/bin, /bin]\n`);
    await writeBundle(join(root, 'boxed'), {
      entrypoints: [entry({ runtime: 'container', runtime_version: `example/skill@sha256:${'a'.repeat(64)}`, command: ['run'], runtime_limits: { max_execution_time: 120 } })],
    });
    // One process, named by its argument, for the SIGKILL case.
    await writeBundle(join(root, 'loner'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.version.slice(1), command: 'node main.js loner-161803', runtime_limits: { max_execution_time: 120 } })],
      files: { 'main.js': "setTimeout(() => process.stdout.write('{}'), 120000);" },
    });
  });

  /** Starts `skillctl run …` in the background; resolves with its exit code once `signal` stopped it. */
  async function interrupt(args: readonly string[], signal: NodeJS.Signals, marker: string, program?: string): Promise<number | null> {
    const child = spawn(process.execPath, [BIN, 'run', ...args], { cwd: root, env: { ...process.env, TMPDIR: scratch, NO_COLOR: '1' }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, sig) => resolve(code ?? (sig === 'SIGKILL' ? -9 : null))));
    assert.ok(await until(() => processesWith(marker, program).length > 0), `${marker} started`);
    child.kill(signal);
    return exited;
  }

  for (const [signal, status] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} during a process skill: exit ${status}, recorded as interrupted, nothing left running`, async () => {
      const code = await interrupt(['./sleeper', '--sandbox', 'bwrap'], signal, 'sleep 271.828');
      assert.equal(code, status);
      const last = (await records()).pop();
      assert.deepEqual([last?.event, last?.result?.status, last?.result?.exit_code], ['end', 'interrupted', status]);
      assert.ok(await until(() => processesWith('sleep 271.828').length === 0), 'the skill and its children are gone');
      assert.deepEqual(verifyAuditLog(await readFile(audit(), 'utf8'), audit()).diagnostics, []);
    });
  }

  it('SIGINT during a container skill: exit 130, and the engine is told to remove the container its killed client leaves running', async () => {
    const code = await interrupt(['./boxed', '--policy', 'container.policy.yaml'], 'SIGINT', 'sleep 273.141');
    assert.equal(code, 130);
    const calls = (await readFile(join(root, 'engine-calls'), 'utf8')).trim().split('\n');
    const name = /--name (skillctl-[0-9a-f]+) /.exec(calls.find((c) => c.startsWith('run ')) ?? '')?.[1];
    assert.ok(name !== undefined, calls.join('\n'));
    assert.ok(calls.includes(`rm -f ${name}`), `the container was left running:\n${calls.join('\n')}`);
    assert.deepEqual([(await records()).pop()?.result?.status], ['interrupted']);
  });

  it('SIGTERM during a built-in: its program is killed, exit 143, recorded as interrupted', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'shell.exec_safe', '--input', '-', '--sandbox', 'bwrap'], { cwd: root, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(JSON.stringify({ argv: ['sleep', '314.159'] }));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.ok(await until(() => processesWith('sleep 314.159').length > 0));
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.ok(await until(() => processesWith('sleep 314.159').length === 0));
    const last = (await records()).pop();
    assert.deepEqual([last?.result?.status, last?.run_id.length], ['interrupted', 16]);
  });

  it('an archive run interrupted leaves no unpacked copy in TMPDIR', async () => {
    const packed = skillctl(['pack', './sleeper', '--out', join(root, 'dist')], { cwd: root });
    assert.equal(packed.code, 0, packed.stderr);
    const archive = (await readdir(join(root, 'dist'))).find((f) => f.endsWith('.tgz')) as string;
    const code = await interrupt([join('dist', archive), '--sandbox', 'bwrap'], 'SIGINT', 'sleep 271.828');
    assert.equal(code, 130);
    assert.deepEqual(await leftIn(scratch), []);
  });

  it('skillctl killed outright (SIGKILL) with --sandbox none: the skill dies with it, and its start record names the run', async () => {
    const before = (await records()).length;
    // Killed once setpriv has set the parent-death signal and exec'd node (its own command line
    // carries the marker before that; a kill in that window is a residual risk docs/security.md names).
    const code = await interrupt(['./loner', '--sandbox', 'none'], 'SIGKILL', 'loner-161803', 'node');
    assert.equal(code, -9);
    // Without bubblewrap, the parent-death signal (setpriv) takes the skill's process with skillctl.
    assert.ok(await until(() => processesWith('loner-161803').length === 0), 'the skill died with skillctl');
    const all = await records();
    const started = all.slice(before);
    assert.deepEqual(started.map((r) => r.event), ['start']);
    const v = verifyAuditLog(await readFile(audit(), 'utf8'), audit());
    assert.deepEqual(v.diagnostics.map((d) => d.code), ['AUDIT_RUN_UNFINISHED']);
    // The next run appends after it, chained.
    assert.equal(skillctl(['run', 'fs.read_text', '--input', '-'], { cwd: root, input: '{"path":"skillctl.policy.yaml"}' }).code, 0);
    assert.deepEqual(verifyAuditLog(await readFile(audit(), 'utf8'), audit()).diagnostics.map((d) => d.code), ['AUDIT_RUN_UNFINISHED']);
  });
});
