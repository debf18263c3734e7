// The proxy's socket as bubblewrap is handed it: a descriptor checked to be the proxy's, so that
// whatever the path holds later (another run's skill may write the temporary directory) is not
// what the sandbox reaches.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPolicyGate, grantPermissions, loadPolicy, type RecordingGate } from '../../../../src/core/policy/index.js';
import { openEgress, planEgress, type EgressPlan, type OpenEgress } from '../../../../src/core/run/egress/open.js';
import { egressEnv } from '../../../../src/core/run/egress/bridge.js';
import { pinSocket } from '../../../../src/core/run/egress/socket-pin.js';
import { descriptors } from '../../../../src/core/run/grant-pins.js';
import { spawnBounded } from '../../../../src/core/run/process-runner.js';
import { sandboxPrefix } from '../../../../src/core/run/sandbox.js';
import { serve, type TestServer } from '../../../helpers/network.js';
import { tempDir } from '../../../helpers/tmp.js';

/** A listener at `path` that is not the proxy: it records what it hears and closes. */
async function impostor(path: string): Promise<{ heard: string[]; close: () => Promise<void> }> {
  const heard: string[] = [];
  const server = net.createServer((s) => s.once('data', (d: Buffer) => void (heard.push(d.toString()), s.end('HTTP/1.1 200 OK\r\ncontent-length: 8\r\n\r\nimpostor'))));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { heard, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const never = new Promise<void>(() => undefined);

describe('pinSocket', () => {
  const tmp = realpathSync(tempDir('skillctl-pin-socket-'));
  const probe = Buffer.from(`${'p'.repeat(64)}\n`);

  it('refuses a socket that is not the proxy: the probe reaches another listener, which cannot report it', async () => {
    const path = join(tmp, 'other.sock');
    const other = await impostor(path);
    try {
      await assert.rejects(pinSocket(net, path, probe, never), { message: `${path} is not this run's proxy socket (it closed the probe unheard): something replaced it` });
      assert.deepEqual(other.heard, [probe.toString()], 'the probe is one-time and not the token: hearing it gains nothing');
    } finally {
      await other.close();
    }
  });

  it('refuses a file, and a link to a socket, at the path; and nothing there', async () => {
    const file = join(tmp, 'file.sock');
    await writeFile(file, '');
    await assert.rejects(pinSocket(net, file, probe, never), { message: `${file} is not a socket` });
    const target = join(tmp, 'target.sock');
    const other = await impostor(target);
    try {
      const link = join(tmp, 'link.sock');
      await symlink(target, link);
      await assert.rejects(pinSocket(net, link, probe, never), { message: `${link} is not a socket` });
    } finally {
      await other.close();
    }
    await assert.rejects(pinSocket(net, join(tmp, 'absent.sock'), probe, never), { code: 'ENOENT' });
  });
});

describe('the egress socket under bubblewrap', () => {
  const tmp = realpathSync(tempDir('skillctl-pin-run-'));
  let site: TestServer;
  let gate: RecordingGate;
  let netHttp: Parameters<typeof planEgress>[0];

  before(async () => {
    site = await serve((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`site:${req.url ?? ''}`));
    const policy = loadPolicy(Buffer.from(JSON.stringify({ version: 1, permissions: { 'net.http': [`http://127.0.0.1:${site.port}/public`] } })), { file: 'policy.json', baseDir: tmp });
    assert.ok(policy.policy, JSON.stringify(policy.diagnostics));
    const grant = await grantPermissions({ 'net.http': ['http://*'] }, {}, policy.policy, { cwd: tmp, pathEnv: '' });
    gate = createPolicyGate(grant.granted, { cwd: tmp, pathEnv: '' });
    netHttp = grant.granted.netHttp;
  });
  after(() => site.close());

  /** This grant's proxy, started as a run starts it. */
  async function startProxy(): Promise<{ readonly plan: EgressPlan; readonly started: OpenEgress }> {
    const plan = planEgress(netHttp);
    assert.ok(plan !== undefined);
    const started = await openEgress(plan, gate);
    assert.ok(!('failure' in started));
    return { plan, started };
  }

  /** The sandbox bubblewrap (found on `pathEnv`) sets up for a run of this grant, with python3 fetching `path` through the proxy inside it: what it printed. */
  async function fetchInside(pathEnv: string, socket: string, started: OpenEgress, path: string, grants: { read: string[]; write: string[] } = { read: [], write: [] }): Promise<{ readonly prefix: readonly string[]; readonly out: string }> {
    const prefix = await sandboxPrefix({ mode: 'bwrap', allowUnsandboxed: false, pathEnv, writable: grants.write, cwd: '/tmp', runtimeDirs: [], ...grants, egress: { readsHttps: false, socket }, protect: [] });
    assert.ok(!('refused' in prefix), JSON.stringify(prefix));
    // The seccomp filter and the grants' descriptors after the egress files, as a run hands them on (pinned where this bubblewrap takes them).
    const r = await spawnBounded({
      argv: [...prefix.prefix, 'python3', '-c', `import urllib.request; r = urllib.request.urlopen('http://127.0.0.1:${site.port}${path}'); print(r.status, r.read().decode(), end='')`],
      cwd: '/tmp',
      env: egressEnv({ PATH: '/usr/bin:/bin' }, started.proxy.token),
      fds: descriptors(started.fds, prefix.held, prefix.filter),
      timeoutMs: 30_000,
      maxStdout: 1 << 16,
      maxStderr: 1 << 16,
    }).finally(() => prefix.held?.release());
    return { prefix: prefix.prefix, out: r.stdout.toString() || r.stderr.toString() };
  }

  it("reaches this run's proxy even when its socket's path was swapped for another listener before bubblewrap started", async () => {
    const { plan, started } = await startProxy();
    // What a skill of another run, granted the temporary directory, could do in the meantime.
    const moved = join(tmp, 'moved.sock');
    await rename(plan.socket, moved);
    const other = await impostor(plan.socket);
    try {
      const inside = await fetchInside(process.env.PATH ?? '', plan.socket, started, '/public/x');
      assert.ok(inside.prefix.includes('--ro-bind-fd'), 'this bubblewrap mounts descriptors');
      assert.equal(inside.out, '200 site:/public/x');
      assert.deepEqual(other.heard, [], 'the listener at the path heard nothing: not the request, not the token');
    } finally {
      await other.close();
      await started.proxy.close();
    }
  });

  it('with / and /tmp granted, the socket is shown in /dev, whose mount point is made before /dev turns read-only', async () => {
    const { plan, started } = await startProxy();
    try {
      const inside = await fetchInside(process.env.PATH ?? '', plan.socket, started, '/public/z', { read: ['/'], write: ['/tmp'] });
      assert.ok(inside.prefix.includes('/dev/skillctl-egress.sock'), inside.prefix.join(' '));
      assert.equal(inside.out, '200 site:/public/z');
    } finally {
      await started.proxy.close();
    }
  });

  it('a bubblewrap without --ro-bind-fd is given the checked path instead, and the run still reaches its proxy', async () => {
    const { plan, started } = await startProxy();
    // A bubblewrap whose help does not know the option, as before 0.10 without the backport.
    const bin = join(tmp, 'old-bwrap');
    await mkdir(bin);
    await writeFile(join(bin, 'bwrap'), `#!/bin/sh\nif [ "$1" = --help ]; then /usr/bin/bwrap --help | grep -v -- -fd; exit 0; fi\nexec /usr/bin/bwrap "$@"\n`, { mode: 0o755 });
    try {
      const inside = await fetchInside(`${bin}:/usr/bin:/bin`, plan.socket, started, '/public/y');
      assert.ok(!inside.prefix.includes('--ro-bind-fd') && inside.prefix.includes(plan.socket));
      assert.equal(inside.out, '200 site:/public/y');
    } finally {
      await started.proxy.close();
    }
  });
});
