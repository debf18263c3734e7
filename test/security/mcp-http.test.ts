// Threat: a client of `skillctl mcp --http` (an agent, a web page the user visits, a page on a rebound name) runs more than one agent's share, or any tool at all without being an MCP client.
// Over Streamable HTTP every `initialize` starts a session, and any process on the machine may
// start as many as it likes. An agent that opens six sessions and bursts calls in each must still
// meet the server's bound on runs at once (4), not six times it. A web page cannot be an MCP
// client: a page on a name rebound to 127.0.0.1 sends its own Host (refused, 403); a page of
// another origin can only send what a browser sends without asking (a form or `no-cors` fetch:
// `text/plain`, refused 415 before any session starts), and a request it would have to ask for
// first (`application/json`) is preflighted with OPTIONS, which grants no origin.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { scratch, treeState } from '../helpers/attack.js';
import { BIN, ROOT } from '../helpers/paths.js';

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
    child = spawn(process.execPath, [BIN, 'mcp', '--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--http', '127.0.0.1:0'], { cwd: s.work, stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr?.on('data', (c: Buffer) => {
        err += c.toString();
        const m = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(err);
        if (m !== null) resolve(m[1] as string);
      });
      child.once('exit', () => reject(new Error(`exited: ${err}`)));
    });
  });
  after(() => {
    child.kill('SIGTERM');
  });

  it('six sessions bursting 20 calls each: every call answered, the runs never more than one session may have (threads counted)', async () => {
    const clients = Array.from({ length: 6 }, (_, i) => new Client({ name: `agent-${i}`, version: '0' }));
    try {
      for (const c of clients) {
        await c.connect(new StreamableHTTPClientTransport(new URL(url)));
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

  it('a page on a name rebound to 127.0.0.1: its Host is refused (403), no session', async () => {
    const port = new URL(url).port;
    for (const host of ['attacker.example', `attacker.example:${port}`]) {
      const r = await send(url, 'POST', { host, 'content-type': 'application/json', accept: ACCEPT }, INIT);
      assert.equal(r.status, 403, host);
      assert.equal(r.headers['mcp-session-id'], undefined);
    }
  });

  it('a page of another origin, posting what a form or a no-cors fetch may (text/plain): 415, no session', async () => {
    const r = await send(url, 'POST', { origin: 'https://attacker.example', 'content-type': 'text/plain', accept: ACCEPT }, INIT);
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
