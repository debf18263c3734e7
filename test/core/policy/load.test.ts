import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capLimits, defaultPolicy, evaluateCapability, loadPolicy } from '../../../src/core/policy/index.js';

function load(text: string, file = 'skillctl.policy.yaml') {
  return loadPolicy(Buffer.from(text), { file, baseDir: '/project' });
}
function codes(r: ReturnType<typeof load>): string[] {
  return r.diagnostics.map((d) => d.code);
}

describe('loadPolicy', () => {
  it('reads every allowlist and cap, resolving relative paths against the policy directory', () => {
    const r = load(`version: 1
permissions:
  fs.read: [., /data, src]
  fs.write: [out]
  net.http: [https://api.example.com/v1, "https://*.example.org"]
  exec:
    - git
    - command: /usr/bin/rg
      args: ["--json", "-e", "*"]
      deny_args: ["--pre*"]
  env: [HOME, LANG]
limits:
  max_execution_time: 30s
  max_memory: 256MiB
  max_output_bytes: 64KiB
`);
    assert.deepEqual(r.diagnostics, []);
    const p = r.policy;
    assert.ok(p);
    assert.deepEqual(p.fsRead, ['/project', '/data', '/project/src']);
    assert.deepEqual(p.fsWrite, ['/project/out']);
    assert.deepEqual(p.netHttp.map((n) => n.raw), ['https://api.example.com/v1', 'https://*.example.org']);
    assert.deepEqual(p.exec, [{ command: 'git' }, { command: '/usr/bin/rg', args: ['--json', '-e', '*'], deny_args: ['--pre*'] }]);
    assert.deepEqual(p.env, ['HOME', 'LANG']);
    assert.deepEqual(p.limits, { timeoutMs: 30_000, memoryMiB: 256, maxOutputBytes: 65_536 });
    assert.match(p.digest, /^sha256:[0-9a-f]{64}$/);
    assert.equal(p.source, 'skillctl.policy.yaml');
  });

  it("gives every run the policy's PATH, else the documented default, never the host's", () => {
    assert.equal(load('version: 1\n').policy?.runPath, '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    assert.equal(defaultPolicy('/p').runPath, '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    assert.equal(load('version: 1\npath: [/opt/homebrew/bin, /usr/bin, /bin]\n').policy?.runPath, '/opt/homebrew/bin:/usr/bin:/bin');
    for (const bad of ['[bin]', '["/a:/b"]', '[/a, /a]']) {
      const r = load(`version: 1\npath: ${bad}\n`);
      assert.equal(r.policy, undefined, bad);
      assert.ok(r.diagnostics.some((d) => d.pointer?.startsWith('/path') === true), `${bad}: ${JSON.stringify(r.diagnostics)}`);
    }
  });

  it("accepts a container's engine network only when the policy says so, with a boolean", () => {
    assert.equal(load('version: 1\n').policy?.allowContainerNetwork, false);
    assert.equal(defaultPolicy('/p').allowContainerNetwork, false);
    assert.equal(load('version: 1\nallow_container_network: true\n').policy?.allowContainerNetwork, true);
    const r = load('version: 1\nallow_container_network: "yes"\n');
    assert.equal(r.policy, undefined);
    assert.ok(r.diagnostics.some((d) => d.pointer === '/allow_container_network'), JSON.stringify(r.diagnostics));
  });

  it('refuses unknown keys and scopes (schema), with positions', () => {
    const r = load('version: 1\npermissions:\n  fs.delete: [/]\nextra: true\n');
    assert.equal(r.policy, undefined);
    assert.deepEqual(codes(r).sort(), ['POLICY_INVALID', 'SCHEMA_UNKNOWN_FIELD', 'SCHEMA_UNKNOWN_FIELD']);
    const d = r.diagnostics.find((x) => x.pointer === '/permissions/fs.delete');
    assert.equal(d?.line, 3);
  });

  it('refuses a missing or wrong version', () => {
    assert.ok(codes(load('permissions: {}\n')).includes('SCHEMA_REQUIRED'));
    assert.ok(codes(load('version: 2\n')).includes('SCHEMA_ENUM'));
  });

  it('refuses malformed entries: dot segments, bad URLs, bad commands, NUL patterns, bad limits', () => {
    const r = load(
      JSON.stringify({
        version: 1,
        permissions: { 'fs.read': ['/a/../b', '/tmp/./x'], 'net.http': ['https://user@host/', 'ftp://x/'], exec: ['./run', { command: 'git', args: ['a\u0000'] }] },
        limits: { max_memory: '-5MiB', max_execution_time: 'soon' },
      }),
      'p.json',
    );
    assert.equal(r.policy, undefined);
    const pointers = r.diagnostics.filter((d) => d.code === 'POLICY_VALUE_INVALID').map((d) => d.pointer);
    assert.deepEqual(pointers.sort(), [
      '/limits/max_execution_time',
      '/limits/max_memory',
      '/permissions/exec/0',
      '/permissions/exec/1/args/0',
      '/permissions/fs.read/0',
      '/permissions/fs.read/1',
      '/permissions/net.http/0',
      '/permissions/net.http/1',
    ]);
  });

  it('refuses duplicate entries', () => {
    const r = load('version: 1\npermissions:\n  env: [HOME, HOME]\n  fs.read: [/a, /a/]\n  exec: [git, {command: git}]\n');
    assert.deepEqual(r.diagnostics.filter((d) => d.code === 'POLICY_DUPLICATE_ENTRY').map((d) => d.pointer).sort(), ['/permissions/env/1', '/permissions/exec/1', '/permissions/fs.read/1']);
  });

  it('refuses hostile documents (duplicate keys, aliases bombs are parse errors)', () => {
    const r = load('version: 1\nversion: 1\n');
    assert.equal(r.policy, undefined);
    assert.ok(codes(r).includes('MANIFEST_DUPLICATE_KEY'));
    assert.ok(codes(r).includes('POLICY_INVALID'));
  });
});

describe('defaultPolicy', () => {
  it('allows reading inside the working directory and nothing else', () => {
    const p = defaultPolicy('/work/project');
    assert.equal(p.source, 'default');
    assert.equal(evaluateCapability(p, 'fs.read', '/work/project/src/a.ts').allowed, true);
    assert.equal(evaluateCapability(p, 'fs.read', 'src/a.ts', { cwd: '/work/project' }).allowed, true);
    assert.equal(evaluateCapability(p, 'fs.read', '/work/project2/a.ts').allowed, false);
    assert.equal(evaluateCapability(p, 'fs.write', '/work/project/a.ts').allowed, false);
    assert.equal(evaluateCapability(p, 'net.http', 'https://example.com/').allowed, false);
    assert.equal(evaluateCapability(p, 'exec', 'git').allowed, false);
    assert.equal(evaluateCapability(p, 'env', 'HOME').allowed, false);
  });
});

describe('capLimits', () => {
  it('lowers limits above the cap, keeps lower ones, and says so', () => {
    const r = capLimits({ timeoutMs: 60_000, memoryMiB: 128, maxOutputBytes: 1_000_000 }, { timeoutMs: 5_000, memoryMiB: 512 });
    assert.deepEqual(r.limits, { timeoutMs: 5_000, memoryMiB: 128, maxOutputBytes: 1_000_000 });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['POLICY_LIMIT_CAPPED']);
  });
});
