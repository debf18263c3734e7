// The egress proxy on its own: a real gate over a grant of http://127.0.0.1:P/public, a real
// server, and requests made to the proxy's socket as a sandboxed program's bridge makes them.
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPolicyGate, grantPermissions, loadPolicy, type RecordingGate } from '../../../../src/core/policy/index.js';
import { MAX_CONNECTIONS, MAX_PIPELINED, MAX_UPSTREAM, startEgressProxy, type EgressProxy } from '../../../../src/core/run/egress/proxy.js';
import { serve, serveRaw, type TestServer } from '../../../helpers/network.js';
import { tempDir } from '../../../helpers/tmp.js';

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

function collect(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => (body += d));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
  });
}

/** Each proxy's token, by its socket: what a connection sends first, as the bridge does. */
const tokens = new Map<string, string>();

/** A connection the proxy has taken: the token line sent, its one-byte answer read. */
function admitted(socketPath: string, token = tokens.get(socketPath) ?? ''): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(socketPath, () => s.write(`${token}\n`));
    s.once('data', (ack: Buffer) => (ack.toString() === '\n' ? resolve(s) : reject(new Error(`answered ${JSON.stringify(ack.toString())}`))));
    s.once('close', () => reject(new Error('closed unanswered')));
    s.on('error', reject);
  });
}

/** A request to the proxy: `path` is what the request line names (absolute-form for a proxy). */
async function ask(socketPath: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const socket = await admitted(socketPath);
  return new Promise((resolve, reject) => {
    const req = request({ createConnection: () => socket, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => void collect(res).then(resolve));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** CONNECT to `authority`; the status line, and the socket when it was established. */
async function tunnelTo(socketPath: string, authority: string): Promise<{ status: number; socket: Socket; denied: string | undefined }> {
  const socket = await admitted(socketPath);
  return new Promise((resolve, reject) => {
    const req = request({ createConnection: () => socket, method: 'CONNECT', path: authority });
    req.on('connect', (res: IncomingMessage, socket: Socket) => resolve({ status: res.statusCode ?? 0, socket, denied: res.headers['x-skillctl-denied'] as string | undefined }));
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw HTTP over an established tunnel and reads until the other side closes. */
function over(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    socket.on('close', () => resolve(got));
    socket.write(text);
  });
}

describe('egress proxy', () => {
  const tmp = realpathSync(tempDir('skillctl-egress-'));
  let site: TestServer;
  let gate: RecordingGate;
  let proxy: EgressProxy;
  const socketPath = join(tmp, 'proxy', 'proxy.sock');
  const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

  before(async () => {
    site = await serve((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain', 'keep-alive': 'timeout=5', 'x-site': 'yes' }).end(`site:${req.method ?? ''} ${req.url ?? ''} ${body}`);
      });
    }, (req, socket, head) => {
      // An echo protocol: agreed to with 101, then every byte back, prefixed.
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${req.headers.upgrade ?? ''}\r\n\r\n`);
      if (head.length > 0) socket.write(Buffer.concat([Buffer.from('echo:'), head]));
      socket.on('data', (d: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), d])));
    });
    const policy = loadPolicy(Buffer.from(JSON.stringify({ version: 1, permissions: { 'net.http': [`http://127.0.0.1:${site.port}/public`] } })), { file: 'policy.json', baseDir: tmp });
    assert.ok(policy.policy, JSON.stringify(policy.diagnostics));
    const grant = await grantPermissions({ 'net.http': ['http://*'] }, {}, policy.policy, { cwd: tmp, pathEnv: '' });
    gate = createPolicyGate(grant.granted, { cwd: tmp, pathEnv: '' });
    proxy = await startEgressProxy(socketPath, gate);
    tokens.set(socketPath, proxy.token);
  });
  after(async () => {
    await proxy.close();
    await site.close();
  });

  it('makes its socket in a directory only this user can enter', async () => {
    assert.equal((await stat(join(tmp, 'proxy'))).mode & 0o777, 0o700);
  });

  it('forwards a granted request, body and all, to the address the gate checked; hop-by-hop headers stay behind', async () => {
    const a = await ask(socketPath, `${site.base}/public/post?q=1`, { method: 'POST', body: 'hello', headers: { 'proxy-authorization': 'Basic eA==', 'proxy-connection': 'keep-alive', 'x-mine': 'kept' } });
    assert.equal(a.status, 200);
    assert.equal(a.body, 'site:POST /public/post?q=1 hello');
    assert.equal(a.headers['x-site'], 'yes');
    const seen = received.at(-1);
    assert.equal(seen?.headers.host, `127.0.0.1:${site.port}`);
    assert.equal(seen?.headers['x-mine'], 'kept');
    assert.equal(seen?.headers['proxy-authorization'], undefined);
    assert.equal(seen?.headers['proxy-connection'], undefined);
  });

  it('refuses a path outside the prefix with a 403 that names the code; the server never hears of it', async () => {
    const before = received.length;
    const a = await ask(socketPath, `${site.base}/private/key`);
    assert.equal(a.status, 403);
    assert.equal(a.headers['x-skillctl-denied'], 'POLICY_URL_DENIED');
    assert.equal(a.body, 'skillctl egress: POLICY_URL_DENIED: net.http: the URL is not covered by the granted prefixes\n');
    assert.equal(received.length, before);
  });

  it('refuses a request that names no URL, and an https:// one (https goes through CONNECT)', async () => {
    for (const path of ['/public/x', `https://127.0.0.1:${site.port}/public/x`]) {
      const a = await ask(socketPath, path);
      assert.equal(a.status, 400, path);
      assert.equal(a.headers['x-skillctl-denied'], 'POLICY_URL_INVALID', path);
    }
  });

  it('reads a tunnel an http:// prefix allowed: each request in it is checked by its whole URL', async () => {
    const ok = await tunnelTo(socketPath, `127.0.0.1:${site.port}`);
    assert.equal(ok.status, 200);
    const text = await over(ok.socket, `GET /public/in-tunnel HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\nConnection: close\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*site:GET \/public\/in-tunnel \r\n/);
    const before = received.length;
    const no = await tunnelTo(socketPath, `127.0.0.1:${site.port}`);
    const refused = await over(no.socket, `GET /private/in-tunnel HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n\r\n`);
    assert.match(refused, /^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*x-skillctl-denied: POLICY_URL_DENIED\r\n/);
    assert.equal(received.length, before);
  });

  it('carries an upgrade (a WebSocket) in a tunnel it reads once its URL is checked, both ways after the 101; refuses one outside the prefix, the server never asked', async () => {
    const t = await tunnelTo(socketPath, `127.0.0.1:${site.port}`);
    const upgrade = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const got = await new Promise<string>((resolve) => {
      let text = '';
      t.socket.setEncoding('utf8');
      t.socket.on('data', (d: string) => {
        text += d;
        if (text.endsWith('\r\n\r\n')) t.socket.write('ping');
        if (text.endsWith('echo:ping')) resolve(text);
      });
      t.socket.on('close', () => resolve(text));
      t.socket.write(upgrade('/public/ws'));
    });
    t.socket.destroy();
    assert.equal(got, 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\necho:ping');
    const asked = received.at(-1);
    assert.deepEqual([asked?.url, asked?.headers.upgrade, asked?.headers['sec-websocket-version']], ['/public/ws', 'websocket', '13']);
    const before = received.length;
    const no = await tunnelTo(socketPath, `127.0.0.1:${site.port}`);
    const refused = await over(no.socket, upgrade('/private/ws'));
    assert.match(refused, /^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*x-skillctl-denied: POLICY_URL_DENIED\r\n/);
    assert.equal(received.length, before);
  });

  it('refuses a tunnel to a port or host no prefix names', async () => {
    for (const authority of [`127.0.0.1:${site.port + 1}`, '169.254.169.254:80', `localhost:${site.port}`]) {
      const t = await tunnelTo(socketPath, authority);
      assert.equal(t.status, 403, authority);
      assert.equal(t.denied, 'POLICY_URL_DENIED', authority);
      t.socket.destroy();
    }
  });

  it('records every answer for the audit trail', () => {
    const refused = gate.uses.filter((u) => !u.allowed).map((u) => u.code);
    assert.ok(refused.includes('POLICY_URL_DENIED'));
    assert.ok(gate.uses.some((u) => u.allowed && u.covered_by === `net.http:http://127.0.0.1:${site.port}/public`));
  });

  it(`holds at most ${MAX_CONNECTIONS} connections at once: more are closed as they come`, async () => {
    const open: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i++) open.push((await tunnelTo(socketPath, `127.0.0.1:${site.port}`)).socket);
      const extra = connect(socketPath);
      const closed = await new Promise<boolean>((resolve) => {
        extra.on('error', () => undefined);
        extra.on('close', () => resolve(true));
        extra.on('data', () => resolve(false));
        extra.write(`CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\n\r\n`);
      });
      assert.equal(closed, true);
    } finally {
      for (const s of open) s.destroy();
    }
    // Once they are gone, the proxy answers again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await ask(socketPath, `${site.base}/public/after`)).status, 200);
  });

  it(`closes a connection that pipelines more than ${MAX_PIPELINED} requests unanswered; no more than that are sent on`, async () => {
    const before = received.length;
    const socket = await admitted(socketPath);
    const one = `GET ${site.base}/public/pipelined HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n\r\n`;
    const answers = await over(socket, one.repeat(MAX_PIPELINED * 4));
    assert.ok((answers.match(/^HTTP\/1\.1 /gm) ?? []).length < MAX_PIPELINED * 4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(received.length - before <= MAX_PIPELINED, `${received.length - before} sent on`);
    assert.equal((await ask(socketPath, `${site.base}/public/after-pipelining`)).status, 200);
  });

  it('takes a connection only after the token line: another, a longer one or none is closed unanswered, nothing asked', async () => {
    const before = gate.uses.length;
    for (const token of ['0'.repeat(64), `${proxy.token}x`, proxy.token.slice(0, 63)]) {
      await assert.rejects(admitted(socketPath, token), /closed unanswered/, token);
    }
    // A request line in place of the token is not parsed either.
    const raw = connect(socketPath);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      raw.on('data', (d: Buffer) => (got += d.toString()));
      raw.on('close', () => resolve(got));
      raw.on('error', () => undefined);
      raw.write(`GET ${site.base}/public/no-token HTTP/1.1\r\nHost: x\r\n\r\n${'x'.repeat(64)}`);
    });
    assert.equal(answer, '');
    assert.equal(gate.uses.length, before);
    assert.ok(!site.seen.includes('/public/no-token'));
  });

  it('refuses a socket directory someone made first, and leaves it as it was', async () => {
    const planted = join(tmp, 'planted');
    await mkdir(planted, { mode: 0o777 });
    await assert.rejects(startEgressProxy(join(planted, 'proxy.sock'), gate), { code: 'EEXIST' });
    assert.ok(existsSync(planted));
    assert.ok(!existsSync(join(planted, 'proxy.sock')));
  });

  it(`opens no connection to a server once closed, though requests still wait for one of its ${MAX_UPSTREAM}`, async () => {
    // A server that never answers: every request holds its connection until the proxy ends it.
    let connections = 0;
    const holder = await serveRaw(() => void connections++);
    const dir = join(tmp, 'holding');
    const policy = loadPolicy(Buffer.from(JSON.stringify({ version: 1, permissions: { 'net.http': [`http://127.0.0.1:${holder.port}/`] } })), { file: 'policy.json', baseDir: tmp });
    assert.ok(policy.policy, JSON.stringify(policy.diagnostics));
    const grant = await grantPermissions({ 'net.http': ['http://*'] }, {}, policy.policy, { cwd: tmp, pathEnv: '' });
    const p = await startEgressProxy(join(dir, 'proxy.sock'), createPolicyGate(grant.granted, { cwd: tmp, pathEnv: '' }));
    tokens.set(join(dir, 'proxy.sock'), p.token);
    let closed = false;
    try {
      const one = `GET http://127.0.0.1:${holder.port}/hold HTTP/1.1\r\nHost: 127.0.0.1:${holder.port}\r\n\r\n`;
      // More requests than the proxy holds connections for: the rest wait for a place.
      const clients = await Promise.all(Array.from({ length: Math.ceil((MAX_UPSTREAM + 64) / 16) }, () => admitted(join(dir, 'proxy.sock'))));
      for (const c of clients) {
        c.on('error', () => undefined);
        c.write(one.repeat(16));
      }
      for (let waited = 0; connections < MAX_UPSTREAM && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(connections, MAX_UPSTREAM);
      closed = true;
      await p.close();
      // Each connection it ends gives a waiting request its place; none may be taken.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(connections, MAX_UPSTREAM, `${connections - MAX_UPSTREAM} connection(s) opened after close`);
    } finally {
      if (!closed) await p.close();
      await holder.close();
    }
  });

  it('close ends open tunnels and removes its directory', async () => {
    const dir = join(tmp, 'closing');
    const p = await startEgressProxy(join(dir, 'proxy.sock'), gate);
    tokens.set(join(dir, 'proxy.sock'), p.token);
    const t = await tunnelTo(join(dir, 'proxy.sock'), `127.0.0.1:${site.port}`);
    const closed = new Promise((resolve) => t.socket.on('close', resolve));
    await p.close();
    await closed;
    assert.ok(!existsSync(dir));
  });
});
