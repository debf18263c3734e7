// The attacks a built-in skill's operations must not get past: each is refused by the gate with
// the code that names why, and every question is recorded for the audit trail.
import { realpathSync } from 'node:fs';
import assert from 'node:assert/strict';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { createPolicyGate, grantPermissions, loadPolicy, type RecordingGate } from '../../../src/core/policy/index.js';
import type { PolicyDecision } from '../../../src/core/run/index.js';
import { tempDir } from '../../helpers/tmp.js';

function denied(d: PolicyDecision): string {
  assert.equal(d.allowed, false, d.allowed ? `allowed as ${d.resolved}` : '');
  return d.allowed ? '' : d.code;
}
function allowed(d: PolicyDecision): string {
  assert.equal(d.allowed, true, d.allowed ? '' : `${d.code}: ${d.reason}`);
  return d.allowed ? d.resolved : '';
}

const HOSTS: Record<string, string[]> = {
  'api.example.com': ['93.184.216.34'],
  'internal.example.com': ['10.0.0.5'],
  'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'v6.example.com': ['::ffff:127.0.0.1'],
};

describe('policy gate', () => {
  const tmp = tempDir('skillctl-gate-');
  let root: string;
  let gate: RecordingGate;
  let bin: string;

  before(async () => {
    root = realpathSync(tmp);
    bin = join(root, 'bin');
    await mkdir(join(root, 'data', 'sub'), { recursive: true });
    await mkdir(join(root, 'data2'), { recursive: true });
    await mkdir(join(root, 'out'), { recursive: true });
    await mkdir(bin);
    await writeFile(join(root, 'data', 'report.txt'), 'ok');
    await writeFile(join(root, 'data2', 'f.txt'), 'look-alike');
    await writeFile(join(root, 'secret.txt'), 'secret');
    await symlink('../secret.txt', join(root, 'data', 'link-file'));
    await symlink('..', join(root, 'data', 'link-dir'));
    await symlink('report.txt', join(root, 'data', 'inner-link'));
    await symlink('../secret.txt', join(root, 'out', 'link'));
    await symlink('loop-b', join(root, 'data', 'loop-a'));
    await symlink('loop-a', join(root, 'data', 'loop-b'));
    for (const name of ['tool', 'other']) {
      await writeFile(join(bin, name), '#!/bin/sh\n');
      await chmod(join(bin, name), 0o755);
    }
    await symlink('tool', join(bin, 'tool-alias'));
    const policy = loadPolicy(
      Buffer.from(
        JSON.stringify({
          version: 1,
          permissions: {
            'fs.read': ['data'],
            'fs.write': ['out'],
            'net.http': ['https://api.example.com/v1', 'http://127.0.0.1:8080/', 'https://rebind.example.com/', 'https://internal.example.com/', 'https://metadata.example.com/', 'https://v6.example.com/', 'https://nowhere.example.com/'],
            exec: [{ command: 'tool', args: ['status', 'diff', '--porcelain', '--format=*'], deny_args: ['--format=*%*'] }, 'tool-alias'],
            env: ['HOME'],
          },
        }),
      ),
      { file: 'policy.json', baseDir: root },
    );
    assert.ok(policy.policy, JSON.stringify(policy.diagnostics));
    const grant = await grantPermissions(
      {
        'fs.read': ['.'],
        'fs.write': ['out'],
        'net.http': ['https://api.example.com/', 'http://127.0.0.1:8080/', 'https://rebind.example.com/', 'https://internal.example.com/', 'https://metadata.example.com/', 'https://v6.example.com/', 'https://nowhere.example.com/'],
        exec: ['tool'],
        env: ['HOME', 'AWS_SECRET_ACCESS_KEY'],
      },
      {},
      policy.policy,
      { cwd: root, pathEnv: bin },
    );
    await writeFile(join(root, 'out', 'audit.jsonl'), '');
    gate = createPolicyGate(grant.granted, {
      cwd: root,
      pathEnv: bin,
      protectedPaths: [join(root, 'out', 'audit.jsonl')],
      lookupHost: async (h) => {
        const a = HOSTS[h];
        if (a === undefined) throw new Error('ENOTFOUND');
        return a;
      },
    });
  });

  describe('paths', () => {
    it('allows a file inside the granted directory, resolved to its real path', async () => {
      assert.equal(allowed(await gate.checkRead('data/report.txt')), join(root, 'data', 'report.txt'));
      assert.equal(allowed(await gate.checkRead('./data/report.txt')), join(root, 'data', 'report.txt'));
      assert.equal(allowed(await gate.checkRead(join(root, 'data'))), join(root, 'data'));
    });
    it('refuses escape by ..', async () => {
      assert.equal(denied(await gate.checkRead('data/../secret.txt')), 'POLICY_PATH_INVALID');
      assert.equal(denied(await gate.checkRead('../secret.txt')), 'POLICY_PATH_INVALID');
      assert.equal(denied(await gate.checkRead(`${root}/data/../secret.txt`)), 'POLICY_PATH_INVALID');
    });
    it('refuses escape by a symlinked file', async () => {
      assert.equal(denied(await gate.checkRead('data/link-file')), 'POLICY_PATH_DENIED');
    });
    it('refuses escape by a symlinked directory', async () => {
      assert.equal(denied(await gate.checkRead('data/link-dir/secret.txt')), 'POLICY_PATH_DENIED');
      assert.equal(denied(await gate.checkRead('data/link-dir')), 'POLICY_PATH_DENIED');
    });
    it('allows a symlink that stays inside', async () => {
      assert.equal(allowed(await gate.checkRead('data/inner-link')), join(root, 'data', 'report.txt'));
    });
    it('refuses an absolute path outside', async () => {
      assert.equal(denied(await gate.checkRead('/etc/passwd')), 'POLICY_PATH_DENIED');
      assert.equal(denied(await gate.checkRead(join(root, 'secret.txt'))), 'POLICY_PATH_DENIED');
    });
    it('refuses a prefix look-alike (data2 is not inside data)', async () => {
      assert.equal(denied(await gate.checkRead(join(root, 'data2', 'f.txt'))), 'POLICY_PATH_DENIED');
      assert.equal(denied(await gate.checkRead('data2')), 'POLICY_PATH_DENIED');
    });
    it('refuses . segments, control characters, NUL, backslashes and symlink loops', async () => {
      for (const p of ['data/./report.txt', 'data/report.txt\u0000', 'data/\nreport.txt', 'data\\report.txt', '', 'data/loop-a']) {
        assert.equal(denied(await gate.checkRead(p)), 'POLICY_PATH_INVALID', JSON.stringify(p));
      }
    });
    it('writes: allows a new file in a granted directory, refuses a symlink out and a read-only grant', async () => {
      assert.equal(allowed(await gate.checkWrite('out/new/file.txt')), join(root, 'out', 'new', 'file.txt'));
      assert.equal(denied(await gate.checkWrite('out/link')), 'POLICY_PATH_DENIED');
      assert.equal(denied(await gate.checkWrite('data/report.txt')), 'POLICY_PATH_DENIED');
    });
    it('writes: refuses a protected file (the audit log) inside a write grant', async () => {
      assert.equal(denied(await gate.checkWrite('out/audit.jsonl')), 'POLICY_PATH_PROTECTED');
      assert.equal(allowed(await gate.checkWrite('out/other.jsonl')), join(root, 'out', 'other.jsonl'));
    });
    it('refuses secret keys (.skillctl/keys, any case) to reads and writes inside the grants, whether they exist or not', async () => {
      for (const p of ['data/.skillctl/keys/alice.key', 'data/.skillctl/keys', 'data/.SKILLCTL/Keys/x.key']) assert.equal(denied(await gate.checkRead(p)), 'POLICY_PATH_SECRET', p);
      assert.equal(denied(await gate.checkWrite('out/.skillctl/keys/new.key')), 'POLICY_PATH_SECRET');
      assert.equal(allowed(await gate.checkWrite('out/.skillctl-keys/new.key')), join(root, 'out', '.skillctl-keys', 'new.key'));
    });
  });

  describe('URLs', () => {
    it('allows a URL under the granted prefix and says which address was checked', async () => {
      const d = await gate.checkUrl('https://api.example.com/v1/forecast?city=x');
      assert.equal(allowed(d), 'https://api.example.com/v1/forecast?city=x');
      assert.equal(d.allowed && d.address, '93.184.216.34');
      assert.equal(allowed(await gate.checkUrl('https://API.Example.com:443/v1')), 'https://api.example.com/v1');
    });
    it('refuses look-alike hosts', async () => {
      assert.equal(denied(await gate.checkUrl('https://api.example.com.evil.tld/v1/forecast')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('https://evil-api.example.com/v1')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('https://api.example.com./v1')), 'POLICY_URL_INVALID');
      assert.equal(denied(await gate.checkUrl('https://аpi.example.com/v1')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('https://api.example.com@evil.tld/v1')), 'POLICY_URL_INVALID');
      assert.equal(denied(await gate.checkUrl('https://evil.tld\\@api.example.com/v1')), 'POLICY_URL_INVALID');
    });
    it('refuses encoded traversal and dot segments', async () => {
      for (const u of ['https://api.example.com/v1/%2e%2e/admin', 'https://api.example.com/v1/%2f..%2fadmin', 'https://api.example.com/v1/%2E%2E%5Cadmin', 'https://api.example.com/v1/../admin', 'https://api.example.com/v1/./x']) {
        assert.equal(denied(await gate.checkUrl(u)), 'POLICY_URL_INVALID', u);
      }
    });
    it('refuses another path, port or scheme, and non-http URLs', async () => {
      assert.equal(denied(await gate.checkUrl('https://api.example.com/v2')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('https://api.example.com/v10')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('https://api.example.com:444/v1')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('http://api.example.com/v1')), 'POLICY_URL_DENIED');
      for (const u of ['file:///etc/passwd', 'data:text/plain,ok', 'ftp://api.example.com/v1', 'https://api.example.com/v1#frag']) {
        assert.equal(denied(await gate.checkUrl(u)), 'POLICY_URL_INVALID', u);
      }
    });
    it('refuses names that resolve to non-public addresses (DNS rebinding, metadata)', async () => {
      assert.equal(denied(await gate.checkUrl('https://internal.example.com/')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkUrl('https://rebind.example.com/')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkUrl('https://metadata.example.com/latest')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkUrl('https://v6.example.com/')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkUrl('https://nowhere.example.com/')), 'POLICY_HOST_UNRESOLVED');
    });
    it('allows a private IP literal only when the policy names it', async () => {
      assert.equal(allowed(await gate.checkUrl('http://127.0.0.1:8080/x')), 'http://127.0.0.1:8080/x');
      assert.equal(denied(await gate.checkUrl('http://127.0.0.2:8080/x')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkUrl('http://[::1]:8080/x')), 'POLICY_URL_DENIED');
    });
  });

  describe('tunnels (the egress proxy\'s CONNECT)', () => {
    it('allows the host and port a granted prefix names, whatever its path, and says the scheme that allowed it', async () => {
      const d = await gate.checkTunnel('api.example.com:443');
      assert.equal(allowed(d), 'https://api.example.com');
      assert.equal(d.allowed && d.address, '93.184.216.34');
      assert.equal(allowed(await gate.checkTunnel('127.0.0.1:8080')), 'http://127.0.0.1:8080');
    });
    it('refuses another port, another host, a look-alike and what is not host:port', async () => {
      assert.equal(denied(await gate.checkTunnel('api.example.com:80')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkTunnel('api.example.com:8443')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkTunnel('api.example.com.evil.tld:443')), 'POLICY_URL_DENIED');
      assert.equal(denied(await gate.checkTunnel('169.254.169.254:80')), 'POLICY_URL_DENIED');
      for (const a of ['api.example.com', 'api.example.com:', 'user@api.example.com:443', 'api.example.com:443/v1', 'http://api.example.com:443', '']) {
        assert.equal(denied(await gate.checkTunnel(a)), 'POLICY_URL_INVALID', a);
      }
    });
    it('refuses names that resolve to non-public addresses, as for a URL', async () => {
      assert.equal(denied(await gate.checkTunnel('internal.example.com:443')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkTunnel('rebind.example.com:443')), 'POLICY_ADDRESS_PRIVATE');
      assert.equal(denied(await gate.checkTunnel('nowhere.example.com:443')), 'POLICY_HOST_UNRESOLVED');
    });
  });

  describe('commands', () => {
    it('allows a granted command with allowed arguments, by name or absolute path', async () => {
      assert.equal(allowed(await gate.checkExec(['tool', 'status', '--porcelain'])), join(bin, 'tool'));
      assert.equal(allowed(await gate.checkExec([join(bin, 'tool'), 'diff', '--format=short'])), join(bin, 'tool'));
    });
    it('refuses a command not on the allowlist', async () => {
      assert.equal(denied(await gate.checkExec(['other'])), 'POLICY_EXEC_DENIED');
      assert.equal(denied(await gate.checkExec(['sh', '-c', 'id'])), 'POLICY_EXEC_DENIED');
      const relative = await gate.checkExec(['./tool', 'status']);
      assert.equal(denied(relative), 'POLICY_EXEC_DENIED');
      assert.equal((relative as { reason?: string }).reason, 'exec: the command is a relative path (give a bare name or an absolute path)');
      assert.equal(((await gate.checkExec(['no-such-tool'])) as { reason?: string }).reason, 'exec: the command is not found on PATH');
      assert.equal(denied(await gate.checkExec([])), 'POLICY_EXEC_DENIED');
      assert.equal(denied(await gate.checkExec(['tool\n', 'status'])), 'POLICY_EXEC_DENIED');
    });
    it('a command the skill can do without: refused the same way, recorded as a fallback; an allowed one is a plain use', async () => {
      const before = gate.uses.length;
      assert.equal(denied(await gate.checkExec(['other'], { fallback: 'the built-in search' })), 'POLICY_EXEC_DENIED');
      assert.equal(denied(await gate.checkExec(['tool', 'push'], { fallback: 'the built-in search' })), 'POLICY_EXEC_ARGUMENT_DENIED');
      allowed(await gate.checkExec(['tool', 'status'], { fallback: 'the built-in search' }));
      assert.deepEqual(
        gate.uses.slice(before).map((u) => [u.allowed, u.code, u.fallback]),
        [
          [false, 'POLICY_EXEC_DENIED', 'the built-in search'],
          [false, 'POLICY_EXEC_ARGUMENT_DENIED', 'the built-in search'],
          [true, undefined, undefined],
        ],
      );
    });
    it('refuses another name for the same binary (compared by path, not by symlink target)', async () => {
      assert.equal(denied(await gate.checkExec(['tool-alias', 'status'])), 'POLICY_EXEC_DENIED');
    });
    it('refuses a granted command with a forbidden argument', async () => {
      assert.equal(denied(await gate.checkExec(['tool', 'push'])), 'POLICY_EXEC_ARGUMENT_DENIED');
      assert.equal(denied(await gate.checkExec(['tool', 'status', '-c', 'core.pager=sh'])), 'POLICY_EXEC_ARGUMENT_DENIED');
      assert.equal(denied(await gate.checkExec(['tool', '--format=%(evil)'])), 'POLICY_EXEC_ARGUMENT_DENIED');
      assert.equal(denied(await gate.checkExec(['tool', 'status\u0000x'])), 'POLICY_EXEC_ARGUMENT_DENIED');
    });
  });

  describe('environment and the record', () => {
    it('allows only granted names', () => {
      assert.equal(allowed(gate.checkEnv('HOME')), 'HOME');
      assert.equal(denied(gate.checkEnv('AWS_SECRET_ACCESS_KEY')), 'POLICY_ENV_DENIED');
    });
    it('records every decision without the value asked about', () => {
      assert.ok(gate.uses.length > 30, String(gate.uses.length));
      assert.ok(gate.uses.some((u) => u.allowed && u.covered_by === `fs.read:${join(root, 'data')}`));
      assert.ok(gate.uses.some((u) => !u.allowed && u.code === 'POLICY_PATH_DENIED'));
      assert.ok(!JSON.stringify(gate.uses).includes('secret.txt'));
    });
    it('distinct: a question asked again is kept and told once (a WASI module goes on after a refusal)', async () => {
      const told: unknown[] = [];
      const once = createPolicyGate({ fsRead: [join(root, 'data')], fsWrite: [], netHttp: [], exec: [], env: [] }, { cwd: root, pathEnv: bin, distinct: true, onUse: (u) => told.push(u) });
      for (let i = 0; i < 1000; i++) {
        once.recordRefusal('fs.read', 'POLICY_PATH_DENIED', 'fs.read: an absolute path given to a WASI directory descriptor; its paths are relative to it');
        await once.checkRead(join(root, 'secret.txt'));
        await once.checkRead(join(root, 'data', 'report.txt'));
      }
      assert.deepEqual(
        once.uses.map((u) => [u.allowed, u.code ?? u.covered_by]),
        [
          [false, 'POLICY_PATH_DENIED'],
          [false, 'POLICY_PATH_DENIED'],
          [true, `fs.read:${join(root, 'data')}`],
        ],
      );
      assert.deepEqual(told, once.uses);
    });
  });
});
