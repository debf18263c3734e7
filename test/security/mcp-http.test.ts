// Threat: a client of `skillctl mcp --http` (an agent, another user or process on the machine, a web page the user visits, a page on a rebound name) runs more than one agent's share, or any tool at all without being the user's MCP client.
// Loopback is every local user's: another account on a shared host, another job on a CI runner
// or a container on the host network can connect. Without the server's token (Authorization:
// Bearer), every request is 401 before anything is looked at; before the token, any of them ran
// the user's skills under the user's policy. Over Streamable HTTP every `initialize` starts a
// session, and a client holding the token may start as many as it likes. An agent that opens six sessions and bursts calls in each must still
// meet the server's bound on runs at once (4), not six times it. A web page cannot be an MCP
// client: a page on a name rebound to 127.0.0.1 sends its own Host (refused, 403); a page of
// another origin can only send what a browser sends without asking (a form or `no-cors` fetch:
// `text/plain`, refused 415 before any session starts), and a request it would have to ask for
// first (`application/json`) is preflighted with OPTIONS, which grants no origin.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { scratch, treeState } from '../helpers/attack.js';
import { AUTH, authedTransport, startHttpMcp } from '../helpers/mcp-http.js';
import { ROOT } from '../helpers/paths.js';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '0' } } });
const ACCEPT = 'application/json, text/event-stream';

/** A request with exactly these headers (fetch would put its own Host). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP over HTTP: more sessions are not more runs, and a web page is not a client', () => {
  const s = scratch('skillctl-attack-mcp-http-');
  let child: ChildProcess;
  let url: string;
  let sentinel: Map<string, string>;
  before(async () => {
    sentinel = await treeState(s.outside);
    await writeFile(join(s.work, 'hello.txt'), 'hello\n');
    ({ child, url } = await startHttpMcp(['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit'], s.work));
  });
  after(() => {
    child.kill('SIGTERM');
  });

  it('six sessions bursting 20 calls each: every call answered, the runs never more than one session may have (threads counted)', async () => {
    const clients = Array.from({ length: 6 }, (_, i) => new Client({ name: `agent-${i}`, version: '0' }));
    try {
      for (const c of clients) {
        await c.connect(authedTransport(url));
        await c.callTool({ name: 'capability_skill_load', arguments: { capability_id: 'filesystem' } });
      }
      const threads = (): number => readdirSync(`/proc/${child.pid as number}/task`).length;
      const base = threads();
      let peak = base;
      const watch = setInterval(() => (peak = Math.max(peak, threads())), 5);
      try {
        const answers = await Promise.all(clients.flatMap((c) => Array.from({ length: 20 }, () => c.callTool({ name: 'filesystem__fs_read_text', arguments: { path: 'hello.txt' } }))));
        assert.deepEqual(new Set(answers.map((a) => (a.structuredContent as { text?: string } | undefined)?.text)), new Set(['hello\n']));
      } finally {
        clearInterval(watch);
      }
      // A built-in runs in a worker thread of its own: at most 4 runs, so a handful of threads more.
      assert.ok(peak - base <= 12, `${peak - base} threads more than before the burst`);
    } finally {
      for (const c of clients) await c.close();
    }
  });

  it('another local user or process, without the token: 401 on initialize, on a tool call into a live session, on the listing stream; nothing runs', async () => {
    const owner = new Client({ name: 'owner', version: '0' });
    await owner.connect(authedTransport(url));
    const sid = (owner.transport as { sessionId?: string }).sessionId as string;
    try {
      const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capability_skill_load', arguments: { capability_id: 'filesystem' } } });
      for (const [method, headers, body] of [
        ['POST', { 'content-type': 'application/json', accept: ACCEPT }, INIT],
        ['POST', { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sid }, call],
        ['GET', { accept: 'text/event-stream', 'mcp-session-id': sid }, undefined],
        ['DELETE', { 'mcp-session-id': sid }, undefined],
        ['POST', { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer not-the-token-0123456789' }, INIT],
      ] as const) {
        const r = await send(url, method, headers, body);
        assert.equal(r.status, 401, `${method} ${JSON.stringify(headers)}`);
        assert.equal(r.headers['mcp-session-id'], undefined);
      }
      // The owner's session is still there, with nothing loaded by the others.
      assert.ok(!(await owner.listTools()).tools.some((t) => t.name.startsWith('filesystem__')));
    } finally {
      await owner.close();
    }
  });

  it('a page on a name rebound to 127.0.0.1 (the token leaked to it): its Host is refused (403), no session', async () => {
    const port = new URL(url).port;
    for (const host of ['attacker.example', `attacker.example:${port}`]) {
      const r = await send(url, 'POST', { ...AUTH, host, 'content-type': 'application/json', accept: ACCEPT }, INIT);
      assert.equal(r.status, 403, host);
      assert.equal(r.headers['mcp-session-id'], undefined);
    }
  });

  it('a page on a rebound name holding the token and a live session id: its POST, listing stream and DELETE into that session are 403, and the session goes on', async () => {
    const owner = new Client({ name: 'owner', version: '0' });
    const transport = authedTransport(url);
    await owner.connect(transport);
    try {
      const sid = transport.sessionId as string;
      const host = `attacker.example:${new URL(url).port}`;
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
      assert.equal((await send(url, 'POST', { ...AUTH, host, 'mcp-session-id': sid, 'content-type': 'application/json', accept: ACCEPT }, ping)).status, 403);
      assert.equal((await send(url, 'GET', { ...AUTH, host, 'mcp-session-id': sid, accept: 'text/event-stream' })).status, 403);
      assert.equal((await send(url, 'DELETE', { ...AUTH, host, 'mcp-session-id': sid })).status, 403);
      await owner.ping();
    } finally {
      await owner.close();
    }
  });

  it('a page of another origin, posting what a form or a no-cors fetch may (text/plain): 401 without the token, 415 with it, no session', async () => {
    assert.equal((await send(url, 'POST', { origin: 'https://attacker.example', 'content-type': 'text/plain', accept: ACCEPT }, INIT)).status, 401);
    const r = await send(url, 'POST', { ...AUTH, origin: 'https://attacker.example', 'content-type': 'text/plain', accept: ACCEPT }, INIT);
    assert.equal(r.status, 415);
    assert.equal(r.headers['mcp-session-id'], undefined);
  });

  it('the preflight a page must send for application/json grants no origin', async () => {
    const r = await send(url, 'OPTIONS', { origin: 'https://attacker.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    assert.notEqual(r.status, 204);
  });

  it('nothing outside the scratch folder changed', async () => {
    assert.deepEqual(await treeState(s.outside), sentinel);
  });
});
