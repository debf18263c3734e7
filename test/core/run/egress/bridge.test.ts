// The egress bridge as the sandbox runs it (`node -e`), here on the host: it carries a TCP
// connection to the proxy's socket unchanged, gives the command its NODE_OPTIONS back, and exits
// as the command does.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BRIDGE_SOURCE, egressEnv } from '../../../../src/core/run/egress/bridge.js';
import { tempDir } from '../../../helpers/tmp.js';

function bridge(socket: string, port: number, command: readonly string[], env: Record<string, string> = {}, ca = ''): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['-e', BRIDGE_SOURCE, '--', socket, String(port), ca, '--', ...command], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('egress bridge', () => {
  const tmp = tempDir('skillctl-bridge-');

  it("exits with the command's status, and 128 + the signal that killed it", async () => {
    const port = await freePort();
    assert.equal(bridge('/nonexistent.sock', port, ['/bin/sh', '-c', 'exit 7']).status, 7);
    assert.equal(bridge('/nonexistent.sock', port, ['/bin/sh', '-c', 'kill -TERM $$']).status, 143);
  });

  it('a command that cannot start: exit 127, named', async () => {
    const r = bridge('/nonexistent.sock', await freePort(), ['/no/such/program']);
    assert.equal(r.status, 127);
    assert.match(r.stderr, /^skillctl egress bridge: \/no\/such\/program: spawn \/no\/such\/program ENOENT\n$/);
  });

  it("names the run's authority as the command's only trust store when the proxy reads HTTPS, and leaves the store alone when it does not", async () => {
    const show = ['/bin/sh', '-c', 'printf "%s|%s|%s|%s" "${SSL_CERT_FILE-unset}" "${REQUESTS_CA_BUNDLE-unset}" "${CURL_CA_BUNDLE-unset}" "${NODE_EXTRA_CA_CERTS-unset}"'];
    const host = { SSL_CERT_FILE: '/etc/host.pem' };
    assert.equal(bridge('/nonexistent.sock', await freePort(), show, host, '/skillctl-egress-ca.pem').stdout, Array(4).fill('/skillctl-egress-ca.pem').join('|'));
    assert.equal(bridge('/nonexistent.sock', await freePort(), show, host).stdout, '/etc/host.pem|unset|unset|unset');
  });

  it('gives the command the NODE_OPTIONS egressEnv saved, and not the saved copy nor the proxy token', async () => {
    const env = egressEnv({ PATH: process.env.PATH ?? '', NODE_OPTIONS: '--max-old-space-size=99' }, 'secret-token');
    assert.equal(env.SKILLCTL_EGRESS_TOKEN, 'secret-token');
    assert.equal(env.HTTP_PROXY, 'http://127.0.0.1:3128');
    assert.equal(env.https_proxy, 'http://127.0.0.1:3128');
    assert.equal(env.NODE_USE_ENV_PROXY, '1');
    // bubblewrap unsets NODE_OPTIONS for the bridge; here the test leaves it out itself.
    const forBridge = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'NODE_OPTIONS'));
    const r = bridge('/nonexistent.sock', await freePort(), ['/bin/sh', '-c', 'printf "%s|%s|%s" "$NODE_OPTIONS" "${SKILLCTL_SAVED_NODE_OPTIONS-unset}" "${SKILLCTL_EGRESS_TOKEN-unset}"'], forBridge);
    assert.equal(r.stdout, '--max-old-space-size=99|unset|unset');
  });

  /**
   * Serves a proxy socket with `serve`, runs the bridge (token `tok`) with a node probe that
   * connects to its port, and answers the probe's exit code and output. Asynchronously: the
   * proxy's socket is served by this process.
   */
  async function throughBridge(name: string, serve: (c: Socket) => void, probe: (port: number) => string): Promise<{ code: number | null; out: string }> {
    const socket = join(tmp, name);
    const server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const port = await freePort();
      return await new Promise((resolve) => {
        const child = spawn(process.execPath, ['-e', BRIDGE_SOURCE, '--', socket, String(port), '', '--', process.execPath, '-e', probe(port)], { env: { PATH: process.env.PATH ?? '', SKILLCTL_EGRESS_TOKEN: 'tok' } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("carries a connection to the proxy's socket, both ways, after the token line and the proxy's answer to it", async () => {
    // As the proxy does: the token line, a one-byte answer, then the program's bytes.
    const serve = (c: Socket): void => {
      let got = '';
      c.on('data', (d) => {
        got += d.toString();
        if (got === 'tok\n') c.write('\n');
        else if (got.startsWith('tok\n') && got.length > 4) c.end(`pong:${got.slice(4)}`);
      });
    };
    const probe = (port: number): string => `const c=require('net').connect(${port},'127.0.0.1',()=>c.write('ping'));let s='';c.on('data',(d)=>(s+=d)).on('close',()=>process.stdout.write(s));`;
    assert.deepEqual(await throughBridge('proxy.sock', serve, probe), { code: 0, out: 'pong:ping' });
  });

  it('closes the program\'s connection when the proxy closes before its answer (at its connection limit), rather than leave it waiting', async () => {
    const probe = (port: number): string =>
      `const c=require('net').connect(${port},'127.0.0.1',()=>c.write('x'));c.on('error',()=>{});c.on('close',()=>{process.stdout.write('closed');process.exit(0)});setTimeout(()=>{process.stdout.write('waiting');process.exit(1)},5000);`;
    assert.deepEqual(await throughBridge('closing.sock', (c) => c.destroy(), probe), { code: 0, out: 'closed' });
  });
});
