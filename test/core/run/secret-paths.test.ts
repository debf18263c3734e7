// RunOptions.secretPaths: files the command starting a run keeps secret (`mcp --http-token-file`).
// A process skill granted their folder reads them unless the sandbox covers them; a built-in
// unless the gate refuses them. The command-level attack is test/security/mcp-token-secret.test.ts.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createPolicyGate } from '../../../src/core/policy/index.js';
import { bwrapArgs, containerArgs } from '../../../src/core/run/index.js';
import { secretFilesIn } from '../../../src/core/run/secret-files.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { PYTHON_VERSION } from '../../helpers/fs-tool.js';
import { engine, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';

const TOKEN = 'secret-paths-token-0123456789abcdef';

/** Reads `token` in the run's working directory as far as it gets. */
const READ_PY = `import json, os
try:
    got = open(os.path.join(os.environ["SKILLCTL_CWD"], "token")).read()
except OSError as e:
    got = type(e).__name__
print(json.dumps({"ok": got}))
`;

async function project(): Promise<{ dir: string; bundle: string }> {
  const dir = realpathSync(tempDir('skillctl-secret-paths-'));
  await writeFile(join(dir, 'token'), `${TOKEN}\n`);
  const bundle = await writeBundle(join(dir, 'reader'), {
    entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', requested_permissions: { 'fs.read': ['.'] } })],
    files: { 'main.py': READ_PY },
  });
  return { dir, bundle };
}

describe('RunOptions.secretPaths', () => {
  it('a python skill granted the folder reads the file without them, and cannot with them (bubblewrap)', async () => {
    const { dir, bundle } = await project();
    const policy = policyFrom({ permissions: { 'fs.read': ['.'] } }, dir);
    const open = await engine({ cwd: dir, target: bundle, policy, request: { sandbox: 'bwrap' } });
    assert.deepEqual(open.output, { ok: `${TOKEN}\n` }, JSON.stringify(open.diagnostics));
    // Named through a link, as a user may name it: the real file is what is covered.
    await symlink('token', join(dir, 'token-link'));
    const held = await engine({ cwd: dir, target: bundle, policy, request: { sandbox: 'bwrap' }, options: { secretPaths: [join(dir, 'token-link')] } });
    assert.equal(held.status, 'ok', JSON.stringify(held.diagnostics));
    assert.ok(!JSON.stringify(held).includes(TOKEN), 'the token leaked');
    assert.deepEqual(held.output, { ok: 'PermissionError' });
  });

  it('the gate refuses reading and writing the file (POLICY_PATH_SECRET), through a link too; other files stay readable', async () => {
    const dir = realpathSync(tempDir('skillctl-secret-gate-'));
    await writeFile(join(dir, 'token'), TOKEN);
    await writeFile(join(dir, 'other'), 'x');
    await symlink('token', join(dir, 'alias'));
    const gate = createPolicyGate({ fsRead: [dir], fsWrite: [dir], netHttp: [], exec: [], env: [] }, { cwd: dir, pathEnv: '', secretPaths: [join(dir, 'token')] });
    for (const [scope, path] of [['fs.read', 'token'], ['fs.read', 'alias'], ['fs.write', 'token']] as const) {
      const d = scope === 'fs.read' ? await gate.checkRead(path) : await gate.checkWrite(path);
      assert.equal(d.allowed ? 'allowed' : d.code, 'POLICY_PATH_SECRET', `${scope} ${path}`);
    }
    assert.ok((await gate.checkRead('other')).allowed);
    assert.ok((await gate.checkRead('.')).allowed, 'the folder holding it is listed, the file is not read');
  });

  it('secretFilesIn: only files that exist inside a grant; bwrapArgs and containerArgs cover each with /dev/null, on top', async () => {
    const dir = realpathSync(tempDir('skillctl-secret-files-'));
    await mkdir(join(dir, 'a'));
    await writeFile(join(dir, 'a', 'token'), TOKEN);
    await mkdir(join(dir, 'a', 'dir'));
    const found = await secretFilesIn([join(dir, 'a', 'token'), join(dir, 'a', 'missing'), join(dir, 'a', 'dir'), '/elsewhere/token'], [join(dir, 'a')]);
    assert.deepEqual(found, [join(dir, 'a', 'token')]);
    const spec = { system: [], cwd: '/w', runtimeDirs: [], read: ['/w'], write: ['/w/out'], protect: ['/w/t'], hideFiles: ['/w/t'] };
    const a = bwrapArgs(spec);
    const at = (kind: string, src: string, dest: string): number => a.findIndex((x, i) => x === kind && a[i + 1] === src && a[i + 2] === dest);
    assert.ok(at('--ro-bind', '/dev/null', '/w/t') > at('--ro-bind-try', '/w', '/w'), a.join(' '));
    const c = containerArgs({ engine: 'docker', name: 'n', image: 'i', bundleDir: '/b', workingDirectory: '.', granted: { fsRead: ['/w'], fsWrite: [], netHttp: [], exec: [], env: [] }, memoryMiB: 256, argv: ['x'], hideFiles: ['/w/t'] }).join(' ');
    assert.ok(c.includes('-v /dev/null:/w/t:ro'), c);
  });
});
