import { realpathSync } from 'node:fs';
import assert from 'node:assert/strict';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { grantPermissions, loadPolicy, type HostPolicy } from '../../../src/core/policy/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('grantPermissions: requested ∩ policy', () => {
  const tmp = tempDir('skillctl-grant-');
  let root: string;
  let policy: HostPolicy;
  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'project', 'src'), { recursive: true });
    await mkdir(join(root, 'bin'));
    await writeFile(join(root, 'bin', 'git'), '#!/bin/sh\n');
    await chmod(join(root, 'bin', 'git'), 0o755);
    await symlink(join(root, 'project'), join(root, 'via-link'));
    const loaded = loadPolicy(
      Buffer.from(
        JSON.stringify({
          version: 1,
          permissions: {
            'fs.read': ['project'],
            'fs.write': ['via-link/src'],
            'net.http': ['https://api.example.com/v1'],
            exec: [{ command: join(root, 'bin', 'git'), args: ['status'] }],
            env: ['HOME'],
          },
        }),
      ),
      { file: 'p.json', baseDir: root },
    );
    assert.ok(loaded.policy);
    policy = loaded.policy;
  });

  it('keeps the narrower of two nested paths, whichever side it comes from', async () => {
    const g = await grantPermissions({ 'fs.read': ['/', join(root, 'project', 'src')] }, {}, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(g.granted.fsRead, [join(root, 'project'), join(root, 'project', 'src')].sort());
  });

  it('resolves a link the manifest names, and refuses a policy path through a link in a directory this user owns or can write', async () => {
    // The manifest's side may follow links: the policy bounds what they lead to.
    const viaManifest = await grantPermissions({ 'fs.read': ['via-link/src'] }, { 'fs.read': ['via-link/src'] }, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(viaManifest.granted.fsRead, [join(root, 'project', 'src')]);
    assert.deepEqual(viaManifest.denials, []);
    // The policy's `fs.write: [via-link/src]` leads through via-link, which a skill able to write
    // the folder holding it could have made (or be swapping): refused, and the target named.
    const g = await grantPermissions({ 'fs.write': ['project/src/out'] }, { 'fs.write': ['project/src'] }, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(g.granted.fsWrite, []);
    assert.deepEqual(
      g.denials.map((d) => [d.code, d.value, d.reason]),
      [
        ['POLICY_PATH_LINK', join(root, 'via-link', 'src'), `the policy's fs.write path ${join(root, 'via-link', 'src')} leads through the symlink ${join(root, 'via-link')} (to ${join(root, 'project', 'src')}), in a directory this user owns or can write, where a skill could have made it`],
        ['POLICY_PERMISSION_DENIED', 'project/src', 'required fs.write "project/src": not granted by the host policy'],
      ],
    );
  });

  it('intersects URL prefixes both ways', async () => {
    const wide = await grantPermissions({ 'net.http': ['https://api.example.com/'] }, {}, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(wide.granted.netHttp.map((n) => n.raw), ['https://api.example.com/v1']);
    const narrow = await grantPermissions({ 'net.http': ['https://api.example.com/v1/forecast'] }, {}, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(narrow.granted.netHttp.map((n) => n.raw), ['https://api.example.com/v1/forecast']);
    const other = await grantPermissions({ 'net.http': ['https://evil.example.com/'] }, {}, policy, { cwd: root, pathEnv: '' });
    assert.deepEqual(other.granted.netHttp, []);
  });

  it('matches a requested command name with the policy path it resolves to, keeping the argument patterns', async () => {
    const g = await grantPermissions({ exec: ['git'] }, { exec: ['git'] }, policy, { cwd: root, pathEnv: join(root, 'bin') });
    assert.deepEqual(g.granted.exec, [{ name: 'git', path: join(root, 'bin', 'git'), args: ['status'] }]);
    assert.deepEqual(g.denials, []);
    const missing = await grantPermissions({ exec: ['git'] }, { exec: ['git'] }, policy, { cwd: root, pathEnv: '/nonexistent' });
    assert.deepEqual(missing.granted.exec, []);
    assert.equal(missing.denials[0]?.code, 'POLICY_PERMISSION_DENIED');
  });

  it('refuses every required permission the policy does not grant, naming it', async () => {
    const g = await grantPermissions(
      { 'fs.read': ['.'], env: ['HOME', 'GITHUB_TOKEN'], 'net.http': ['https://evil.example.com/'] },
      { 'fs.read': ['/etc'], env: ['GITHUB_TOKEN'], 'net.http': ['https://evil.example.com/'] },
      policy,
      { cwd: root, pathEnv: '' },
    );
    assert.deepEqual(g.denials.map((d) => `${d.scope}:${d.value}`), ['fs.read:/etc', 'net.http:https://evil.example.com/', 'env:GITHUB_TOKEN']);
    assert.deepEqual(g.granted.env, ['HOME']);
    assert.deepEqual(g.requested, ['env:GITHUB_TOKEN', 'env:HOME', 'fs.read:.', 'net.http:https://evil.example.com/']);
    assert.deepEqual(g.grantedList, [`env:HOME`, `fs.read:${join(root, 'project')}`]);
  });
});
