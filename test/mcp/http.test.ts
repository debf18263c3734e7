// `skillctl mcp --http`: the same server over Streamable HTTP, driven with the SDK's own client
// transport; loopback by default, another address only when asked for.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { skillctl } from '../helpers/cli.js';
import { AUTH, authedTransport, startHttpMcp, TOKEN } from '../helpers/mcp-http.js';
import { fixture, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const REGISTRY = ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit'];
const ListResult = z.object({ skills: z.array(z.object({ uri: z.string(), resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })) })) });

describe('skillctl mcp --http', () => {
  it('serves tools and skills over Streamable HTTP to the SDK client, one session per initialize, and stops on SIGTERM', async () => {
    const dir = tempDir('skillctl-mcp-http-');
    mkdirSync(join(dir, 'skills'));
    cpSync(fixture('agent-skills', 'pinnable', 'pdf-notes'), join(dir, 'skills', 'pdf-notes'), { recursive: true });
    const { child, url, stderr, exited } = await startHttpMcp([...REGISTRY, '--skills', 'skills'], dir);
    const clients = [new Client({ name: 'a', version: '0' }), new Client({ name: 'b', version: '0' })];
    try {
      for (const c of clients) await c.connect(authedTransport(url));
      assert.deepEqual(clients[0]?.getServerCapabilities()?.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } });
      const { skills } = await (clients[0] as Client).request({ method: 'skills/list', params: {} }, ListResult);
      assert.deepEqual(skills.map((s) => s.uri), ['skill://pdf-notes/SKILL.md']);
      // Sessions are apart: a capability loaded in one adds no tool to the other.
      await clients[0]?.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'git' } });
      const names = async (c: Client | undefined): Promise<string[]> => ((await c?.listTools())?.tools ?? []).map((t) => t.name);
      assert.ok((await names(clients[0])).includes('git__git_status'));
      assert.ok(!(await names(clients[1])).includes('git__git_status'));
      // A body that is not JSON: its JSON-RPC error, status 400.
      const sid = (clients[0]?.transport as StreamableHTTPClientTransport).sessionId as string;
      const r = await fetch(url, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid }, body: '{"jsonrpc":' });
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as { error: { code: number } }).error.code, -32700);
    } finally {
      for (const c of clients) await c.close();
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr());
  });

  it('every request carries the token: without it, or with another, 401 and no session', async () => {
    const { child, url, exited } = await startHttpMcp(REGISTRY, tempDir('skillctl-mcp-http-auth-'));
    try {
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
      const tries: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: `Basic ${TOKEN}` }, { authorization: 'Bearer' }];
      for (const headers of tries) {
        const r = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: init });
        assert.equal(r.status, 401, JSON.stringify(headers));
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="skillctl mcp"');
        assert.equal(r.headers.get('mcp-session-id'), null);
      }
      // Nor does a query string stand in for it, nor a path other than /mcp tell what is served.
      assert.equal((await fetch(`${url}?access_token=${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: init })).status, 401);
      assert.equal((await fetch(url.replace('/mcp', '/other'))).status, 401);
      const client = new Client({ name: 'ok', version: '0' });
      await client.connect(authedTransport(url));
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('without a token given, the server makes one and shows it on stderr only; a token file is read; a short token is refused (USAGE)', async () => {
    const dir = tempDir('skillctl-mcp-http-token-');
    const made = await startHttpMcp(REGISTRY, dir, { SKILLCTL_MCP_TOKEN: undefined });
    try {
      const token = /clients send Authorization: Bearer ([A-Za-z0-9_-]{43}) /.exec(made.stderr())?.[1];
      assert.ok(token !== undefined, made.stderr());
      const client = new Client({ name: 'ok', version: '0' });
      await client.connect(authedTransport(made.url, token));
      await client.close();
    } finally {
      made.child.kill('SIGTERM');
      await made.exited;
    }
    writeFileSync(join(dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    const filed = await startHttpMcp([...REGISTRY, '--http-token-file', 'token'], dir, { SKILLCTL_MCP_TOKEN: 'another-token-that-the-file-overrides' });
    try {
      assert.match(filed.stderr(), /clients send Authorization: Bearer <the token of token>/);
      const client = new Client({ name: 'ok', version: '0' });
      await client.connect(authedTransport(filed.url));
      await client.close();
    } finally {
      filed.child.kill('SIGTERM');
      await filed.exited;
    }
    const short = skillctl(['mcp', ...REGISTRY, '--http', '127.0.0.1:0'], { cwd: dir, env: { SKILLCTL_MCP_TOKEN: 'short' } });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /\$SKILLCTL_MCP_TOKEN is not a usable token: a token is at least 16 characters/);
    const stray = skillctl(['mcp', ...REGISTRY, '--http-token-file', 'token'], { cwd: dir });
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--http-token-file is the token of the --http server, which is not asked for/);
  });

  it('an address that is not loopback: refused at start without --http-allow-remote (USAGE, exit 2)', () => {
    const r = skillctl(['mcp', ...REGISTRY, '--http', '0.0.0.0:0'], { cwd: tempDir('skillctl-mcp-http-remote-') });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /USAGE/);
    assert.match(r.stderr, /--http 0\.0\.0\.0:0 is not a loopback address/);
  });
});
