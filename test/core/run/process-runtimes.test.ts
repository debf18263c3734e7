// Process runtimes (node, python, shell) under limits and isolation: process-group kill on
// timeout, files outside the grant invisible inside bubblewrap, commands checked against the exec
// allowlist. The scrubbed environment, bounded output and bounded memory are attack rows in
// test/security/ (environment.test.ts, limits.test.ts).
import { realpathSync } from 'node:fs';
import assert from 'node:assert/strict';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { defaultPolicy, RUN_PATH_DEFAULT } from '../../../src/core/policy/index.js';
import { auditLine } from '../../../src/core/run/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { processesWith } from '../../helpers/procs.js';
import { engine, errorCodes, policyFrom } from '../../helpers/run.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const OK = { type: 'object', required: ['ok'], properties: { ok: { type: 'string' } } };
const READ_STDIN_NODE = "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>main(JSON.parse(s)));\n";

function node(command: string | string[], over: Record<string, unknown> = {}): Record<string, unknown> {
  return entry({ runtime: 'node', runtime_version: process.version.slice(1), command, output_schema: OK, ...over });
}
function shell(command: string | string[], over: Record<string, unknown> = {}): Record<string, unknown> {
  return entry({ runtime: 'shell', runtime_version: 'sh@1', command, output_schema: OK, ...over });
}
function python(command: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return entry({ runtime: 'python', runtime_version: '3.11.2', command, output_schema: OK, ...over });
}

describe('process runtimes', () => {
  const tmp = tempDir('skillctl-proc-');
  let root: string;
  const b = (name: string): string => join(root, 'bundles', name);

  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'granted'));
    await writeFile(join(root, 'granted', 'visible.txt'), 'v');
    await writeFile(join(root, 'secret.txt'), 's');
    const printEnv = `${READ_STDIN_NODE}function main(){process.stdout.write(JSON.stringify({ok:Object.entries(process.env).map(([k,v])=>k+'='+v).sort().join(';')+';zone='+Intl.DateTimeFormat().resolvedOptions().timeZone}))}`;
    await writeBundle(b('env'), {
      entrypoints: [node('node main.js', { requested_permissions: { env: ['HOME'] }, required_environment_variables: ['HOME'] })],
      files: { 'main.js': printEnv },
    });
    // Requested and granted, but not declared as read: hidden context, so it stays out.
    await writeBundle(b('env-undeclared'), {
      entrypoints: [node('node main.js', { requested_permissions: { env: ['HOME'] } })],
      files: { 'main.js': printEnv },
    });
    await writeBundle(b('env-declared-context'), {
      entrypoints: [node('node main.js', { execution_context: { locale: 'C', timezone: 'Europe/Berlin', encoding: 'utf-8' } })],
      files: { 'main.js': printEnv },
    });
    await writeBundle(b('grandchild'), {
      entrypoints: [shell('./run.sh', { runtime_limits: { max_execution_time: '1s' } })],
      files: { 'run.sh': '#!/bin/sh\nsleep 313.371 &\nsetsid sleep 313.372 &\nsleep 313.373\n' },
      executable: ['run.sh'],
    });
    await writeBundle(b('straggler'), {
      entrypoints: [shell('./run.sh')],
      files: { 'run.sh': '#!/bin/sh\nsleep 313.374 &\necho \'{"ok":"done"}\'\n' },
      executable: ['run.sh'],
    });
    await writeBundle(b('peek'), {
      entrypoints: [python('main.py', { requested_permissions: { 'fs.read': [join(root, 'granted')] } })],
      files: { 'main.py': 'import json, os, sys\np = json.load(sys.stdin)["path"]\nprint(json.dumps({"ok": "exists" if os.path.exists(p) else "missing"}))\n' },
    });
    await writeBundle(b('node-perm'), {
      entrypoints: [node('main.js', { requested_permissions: { 'fs.read': [join(root, 'granted')] } })],
      files: { 'main.js': `${READ_STDIN_NODE}function main(i){let ok;try{require('fs').readFileSync(i.path);ok='read'}catch(e){ok=e.code}process.stdout.write(JSON.stringify({ok}))}` },
    });
    await writeBundle(b('cat'), {
      entrypoints: [shell(['cat'], { input_schema: { type: 'object', properties: { ok: { type: 'string' } } }, args_fingerprint_fields: ['input.ok'], requested_permissions: { exec: ['cat'] } })],
    });
    await writeBundle(b('cat-n'), {
      entrypoints: [shell(['cat', '-n'], { requested_permissions: { exec: ['cat'] } })],
    });
    await writeBundle(b('fails'), {
      entrypoints: [node('main.js')],
      files: { 'main.js': 'process.stdout.write(JSON.stringify({code:"NOT_FOUND",message:"no such thing"}));process.exit(3);\n' },
    });
    await writeBundle(b('prose'), {
      entrypoints: [node('main.js')],
      files: { 'main.js': 'process.stdout.write("Here is your answer: 42");\n' },
    });
    await writeBundle(b('late-garbage'), {
      entrypoints: [node('main.js')],
      files: { 'main.js': 'process.stdout.write(\'{\\n  "ok": "x",\\n  , "y": 1}\\n\');\n' },
    });
    await writeBundle(b('silent'), {
      entrypoints: [node('main.js')],
      files: { 'main.js': '\n' },
    });
    await writeBundle(b('container'), {
      entrypoints: [entry({ runtime: 'container', runtime_version: `example/skill@sha256:${'a'.repeat(64)}`, command: ['run'], output_schema: OK })],
    });
    await writeBundle(b('thesis'), {
      entrypoints: [node('main.js', { input_schema: { type: 'string' }, output_schema: { type: 'string', minLength: 1 }, args_fingerprint_fields: ['input'], result_fingerprint_fields: ['result'] })],
      files: { 'main.js': `${READ_STDIN_NODE}function main(i){process.stdout.write(JSON.stringify(i.toUpperCase()))}` },
    });
    await writeBundle(b('old-pin'), {
      entrypoints: [node('main.js', { runtime_version: '1.2.3' })],
      files: { 'main.js': 'process.stdout.write(JSON.stringify({ok:"x"}));\n' },
    });
    await mkdir(join(root, 'nodeonly'));
    await symlink(process.execPath, join(root, 'nodeonly', 'node'));
    await mkdir(join(root, 'fakebin'));
    await writeFile(join(root, 'fakebin', 'docker'), '#!/bin/sh\necho "Cannot connect to the Docker daemon at unix:///var/run/docker.sock" >&2\nexit 1\n');
    await chmod(join(root, 'fakebin', 'docker'), 0o755);
  });

  for (const sandbox of ['bwrap', 'none'] as const) {
    it(`--sandbox ${sandbox}: the skill sees PATH, the declared granted variables and its execution context only, never ambient credentials or the host's zone`, async () => {
      const env = { PATH, HOME: '/home/tester', TZ: 'Asia/Tokyo', LANG: 'ja_JP.UTF-8', AWS_SECRET_ACCESS_KEY: 'aws-secret', GITHUB_TOKEN: 'gh-token', NPM_TOKEN: 'npm-token' };
      const seenBy = async (name: string): Promise<string[]> => {
        const r = await engine({ cwd: root, target: b(name), env, policy: policyFrom({ permissions: { env: ['HOME'] } }, root), request: { sandbox } });
        assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
        const seen = (r.output as { ok: string }).ok.split(';');
        // bubblewrap sets PWD to the directory it starts the skill in: the bundle, at /skill whatever its host path.
        if (sandbox === 'bwrap') assert.ok(seen.includes('PWD=/skill'), seen.join(';'));
        return seen.filter((kv) => !kv.startsWith('PWD='));
      };
      // The policy's PATH (here the default), never the host's.
      const RUN_PATH = RUN_PATH_DEFAULT;
      assert.deepEqual(await seenBy('env-undeclared'), ['LC_ALL=C.UTF-8', `PATH=${RUN_PATH}`, 'PYTHONIOENCODING=utf-8', `SKILLCTL_CWD=${root}`, 'TZ=UTC', 'zone=UTC']);
      assert.deepEqual(await seenBy('env-declared-context'), ['LC_ALL=C', `PATH=${RUN_PATH}`, 'PYTHONIOENCODING=utf-8', `SKILLCTL_CWD=${root}`, 'TZ=Europe/Berlin', 'zone=Europe/Berlin']);
      const r = await engine({ cwd: root, target: b('env'), env, policy: policyFrom({ permissions: { env: ['HOME'] } }, root), request: { sandbox } });
      const seen = (r.output as { ok: string }).ok.split(';').filter((kv) => !kv.startsWith('PWD='));
      assert.deepEqual(seen, ['HOME=/home/tester', 'LC_ALL=C.UTF-8', `PATH=${RUN_PATH}`, 'PYTHONIOENCODING=utf-8', `SKILLCTL_CWD=${root}`, 'TZ=UTC', 'zone=UTC']);
      assert.equal(r.record.result.sandbox, sandbox);
      for (const secret of ['aws-secret', 'gh-token', 'npm-token']) assert.ok(!auditLine(r.record).includes(secret));
    });

    it(`--sandbox ${sandbox}: a timeout kills the skill and its children: exit 124, nothing left running`, async () => {
      const r = await engine({ cwd: root, target: b('grandchild'), env: { PATH }, request: { sandbox } });
      assert.equal(r.status, 'timeout');
      assert.equal(r.exitCode, 124);
      assert.equal(r.record.result.status, 'timeout');
      assert.deepEqual(processesWith('sleep 313.371'), []);
      assert.deepEqual(processesWith('sleep 313.373'), []);
      // A process that starts its own session leaves the process group; only the PID namespace
      // of the sandbox takes it down.
      if (sandbox === 'bwrap') assert.deepEqual(processesWith('sleep 313.372'), []);
      for (const pid of processesWith('sleep 313.372')) process.kill(pid, 'SIGKILL');
    });

    it(`--sandbox ${sandbox}: background processes do not outlive a skill that exits`, async () => {
      const r = await engine({ cwd: root, target: b('straggler'), env: { PATH }, request: { sandbox } });
      assert.deepEqual(r.output, { ok: 'done' });
      assert.deepEqual(processesWith('sleep 313.374'), []);
    });
  }

  it('bubblewrap: a file outside the granted paths does not exist inside the sandbox; a granted one does', async () => {
    const policy = policyFrom({ permissions: { 'fs.read': [join(root, 'granted')] } }, root);
    const run = (path: string, sandbox: 'bwrap' | 'none') => engine({ cwd: root, target: b('peek'), env: { PATH }, policy, input: { path }, request: { sandbox } });
    assert.deepEqual((await run(join(root, 'secret.txt'), 'bwrap')).output, { ok: 'missing' });
    assert.deepEqual((await run('/etc/shadow', 'bwrap')).output, { ok: 'missing' });
    assert.deepEqual((await run(join(root, 'granted', 'visible.txt'), 'bwrap')).output, { ok: 'exists' });
    // Without the sandbox the same file is there: the sandbox is what hides it.
    assert.deepEqual((await run(join(root, 'secret.txt'), 'none')).output, { ok: 'exists' });
  });

  it("node's permission model refuses files outside the bundle and the grant, even without bubblewrap", async () => {
    const policy = policyFrom({ permissions: { 'fs.read': [join(root, 'granted')] } }, root);
    const run = (path: string) => engine({ cwd: root, target: b('node-perm'), env: { PATH }, policy, input: { path }, request: { sandbox: 'none' } });
    assert.deepEqual((await run(join(root, 'secret.txt'))).output, { ok: 'ERR_ACCESS_DENIED' });
    assert.deepEqual((await run(join(root, 'granted', 'visible.txt'))).output, { ok: 'read' });
  });

  it('shell: a command from PATH runs only when the exec allowlist grants it with these arguments', async () => {
    const granted = policyFrom({ permissions: { exec: ['cat'] } }, root);
    const ok = await engine({ cwd: root, target: b('cat'), env: { PATH }, policy: granted, input: { ok: 'echo' } });
    assert.deepEqual(ok.output, { ok: 'echo' });
    const notListed = await engine({ cwd: root, target: b('cat'), env: { PATH }, input: { ok: 'echo' } });
    assert.equal(notListed.exitCode, 3);
    assert.deepEqual(errorCodes(notListed), ['POLICY_EXEC_DENIED']);
    assert.equal(notListed.record.policy.decision, 'deny');
    const noArgs = policyFrom({ permissions: { exec: [{ command: 'cat', args: [] }] } }, root);
    const forbidden = await engine({ cwd: root, target: b('cat-n'), env: { PATH }, policy: noArgs });
    assert.equal(forbidden.exitCode, 3);
    assert.deepEqual(errorCodes(forbidden), ['POLICY_EXEC_ARGUMENT_DENIED']);
    assert.deepEqual(forbidden.record.policy.denials.map((d) => d.code), ['POLICY_EXEC_ARGUMENT_DENIED']);
  });

  it('a non-zero exit with a JSON error is the skill error, checked against error_schema', async () => {
    const r = await engine({ cwd: root, target: b('fails'), env: { PATH } });
    assert.equal(r.status, 'skill_error');
    assert.equal(r.exitCode, 1);
    assert.deepEqual(r.error, { code: 'NOT_FOUND', message: 'no such thing' });
  });

  it('prose on stdout is not an output: RUN_OUTPUT_NOT_JSON about stdout at its first error, discarded, exit 4', async () => {
    const r = await engine({ cwd: root, target: b('prose'), env: { PATH } });
    assert.equal(r.status, 'output_invalid');
    assert.equal(r.exitCode, 4);
    assert.equal(r.output, undefined);
    // Its own code, not the manifest reader's (MANIFEST_PARSE_ERROR), and only that one.
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.file, d.line, d.column]),
      [['RUN_OUTPUT_NOT_JSON', 'stdout', 1, 1]],
    );
    assert.deepEqual(r.record.result.codes, ['RUN_OUTPUT_NOT_JSON']);
    const late = await engine({ cwd: root, target: b('late-garbage'), env: { PATH } });
    assert.deepEqual(
      late.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.file, d.line, d.column]),
      [['RUN_OUTPUT_NOT_JSON', 'stdout', 3, 3]],
    );
    assert.equal(late.exitCode, 4);
    const silent = await engine({ cwd: root, target: b('silent'), env: { PATH } });
    assert.deepEqual([silent.status, silent.exitCode, errorCodes(silent)], ['output_invalid', 4, ['RUN_OUTPUT_NOT_JSON']]);
  });

  it('with retries, an output that is not JSON is discarded as a warning that keeps its position', async () => {
    const r = await engine({ cwd: root, target: b('prose'), env: { PATH }, request: { retries: 1 } });
    assert.equal(r.record.result.attempts, 2);
    assert.equal(r.exitCode, 4);
    const warned = r.diagnostics.filter((d) => d.severity === 'warning').map((d) => [d.code, d.file, d.line, d.message.slice(0, 10)]);
    assert.deepEqual(warned, [
      ['RUN_OUTPUT_DISCARDED', undefined, undefined, 'attempt 1:'],
      ['RUN_OUTPUT_NOT_JSON', 'stdout', 1, 'attempt 1:'],
    ]);
  });

  it('container: a clear error when no container engine answers', async () => {
    for (const path of [`${join(root, 'fakebin')}:/usr/bin:/bin`, join(root, 'granted')]) {
      const r = await engine({ cwd: root, target: b('container'), env: { PATH }, policy: { ...defaultPolicy(root), runPath: path } });
      assert.equal(r.status, 'unavailable');
      assert.equal(r.exitCode, 2);
      assert.deepEqual(errorCodes(r), ['RUN_CONTAINER_ENGINE_UNAVAILABLE']);
    }
  });

  it("a missing interpreter is a clear error: looked up on the policy's PATH, not the host's", async () => {
    const r = await engine({ cwd: root, target: b('peek'), env: { PATH }, input: { path: '/' }, policy: { ...defaultPolicy(root), runPath: join(root, 'granted') } });
    assert.equal(r.exitCode, 2);
    assert.deepEqual(errorCodes(r), ['RUN_RUNTIME_UNAVAILABLE']);
  });

  it("node is the node running skillctl, whatever the policy's PATH holds", async () => {
    const r = await engine({ cwd: root, target: b('thesis'), env: { PATH }, input: 'x', policy: { ...defaultPolicy(root), runPath: join(root, 'granted') }, request: { sandbox: 'none' } });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, 'X');
  });

  it('says when the interpreter is not the pinned version', async () => {
    const r = await engine({ cwd: root, target: b('old-pin'), env: { PATH } });
    assert.equal(r.status, 'ok');
    assert.ok(r.diagnostics.some((d) => d.code === 'RUN_RUNTIME_VERSION_MISMATCH' && d.severity === 'warning' && d.pointer === '/entrypoints/0/runtime_version'));
  });

  it('without bubblewrap and prlimit: auto refuses unless the policy accepts it, then runs unsandboxed with warnings; bwrap refuses', async () => {
    const env = { PATH };
    const nodeOnly = { ...defaultPolicy(root), runPath: join(root, 'nodeonly') };
    const refused = await engine({ cwd: root, target: b('old-pin'), env, policy: nodeOnly });
    assert.deepEqual([refused.exitCode, errorCodes(refused)], [2, ['RUN_SANDBOX_UNAVAILABLE']]);
    const auto = await engine({ cwd: root, target: b('old-pin'), env, policy: { ...nodeOnly, allowUnsandboxed: true } });
    assert.equal(auto.status, 'ok');
    assert.equal(auto.record.result.sandbox, 'none');
    const warnings = auto.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code);
    assert.ok(warnings.includes('RUN_UNSANDBOXED') && warnings.includes('RUN_MEMORY_UNCAPPED'));
    const strict = await engine({ cwd: root, target: b('old-pin'), env, policy: nodeOnly, request: { sandbox: 'bwrap' } });
    assert.equal(strict.exitCode, 2);
    assert.deepEqual(errorCodes(strict), ['RUN_SANDBOX_UNAVAILABLE']);
  });

  it('input and output may be any JSON value their schemas accept (a string payload)', async () => {
    const r = await engine({ cwd: root, target: b('thesis'), env: { PATH }, input: 'most people believe x' });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, 'MOST PEOPLE BELIEVE X');
  });
});
