import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { createPolicyGate, grantPermissions, loadPolicy, type HostPolicy } from '../../../src/core/policy/index.js';
import { tempDir } from '../../helpers/tmp.js';

// An exec rule naming a program inside the policy's fs.write: any skill may rewrite it for the next run.
describe('exec rules naming a program inside a write grant', () => {
  const tmp = tempDir('skillctl-exec-writable-');
  let root: string;
  let lint: string;
  let policy: HostPolicy;
  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'proj', 'scripts'), { recursive: true });
    lint = join(root, 'proj', 'scripts', 'lint.sh');
    await writeFile(lint, '#!/bin/sh\n');
    await chmod(lint, 0o755);
    const loaded = loadPolicy(Buffer.from(JSON.stringify({ version: 1, permissions: { 'fs.write': ['proj'], exec: [{ command: lint }] } })), { file: 'p.json', baseDir: root });
    assert.ok(loaded.policy);
    policy = loaded.policy;
  });

  it('grants nothing and refuses the run of an entrypoint that requests it', async () => {
    const g = await grantPermissions({ exec: [lint] }, {}, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(g.granted.exec, []);
    assert.deepEqual(g.denials.map((d) => [d.scope, d.value, d.code]), [['exec', lint, 'POLICY_EXEC_WRITABLE']]);
  });

  it('refuses a required one with its own code', async () => {
    const g = await grantPermissions({ exec: [lint] }, { exec: [lint] }, policy, { cwd: root, pathEnv: '' });
    assert.ok(g.denials.length > 0 && g.denials.every((d) => d.code === 'POLICY_EXEC_WRITABLE'), JSON.stringify(g.denials));
  });

  it('checkExec refuses it whatever the grant says', async () => {
    const gate = createPolicyGate({ fsRead: [], fsWrite: [], netHttp: [], exec: [{ name: lint, path: lint }], env: [] }, { cwd: root, pathEnv: '', writable: [join(root, 'proj')] });
    const d = await gate.checkExec([lint]);
    assert.equal(d.allowed, false);
    assert.equal(!d.allowed && d.code, 'POLICY_EXEC_WRITABLE');
    const without = createPolicyGate({ fsRead: [], fsWrite: [], netHttp: [], exec: [{ name: lint, path: lint }], env: [] }, { cwd: root, pathEnv: '' });
    assert.equal((await without.checkExec([lint])).allowed, true, 'without write roots, the lexical match alone decides');
  });
});
