// `skillctl mcp --http`: the same server over Streamable HTTP, driven with the SDK's own client
// transport; loopback by default, another address only when asked for.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { skillctl } from '../helpers/cli.js';
import { BIN, fixture, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const REGISTRY = ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit'];
const ListResult = z.object({ skills: z.array(z.object({ uri: z.string(), resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })) })) });

describe('skillctl mcp --http', () => {
  it('serves tools and skills over Streamable HTTP to the SDK client, one session per initialize, and stops on SIGTERM', async () => {
    const dir = tempDir('skillctl-mcp-http-');
    mkdirSync(join(dir, 'skills'));
    cpSync(fixture('agent-skills', 'pinnable', 'pdf-notes'), join(dir, 'skills', 'pdf-notes'), { recursive: true });
    const child = spawn(process.execPath, [BIN, 'mcp', ...REGISTRY, '--skills', 'skills', '--http', '127.0.0.1:0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        const m = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(err);
        if (m !== null) resolve(m[1] as string);
      });
      child.once('exit', () => reject(new Error(`exited: ${err}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const clients = [new Client({ name: 'a', version: '0' }), new Client({ name: 'b', version: '0' })];
    try {
      for (const c of clients) await c.connect(new StreamableHTTPClientTransport(new URL(url)));
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
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid }, body: '{"jsonrpc":' });
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as { error: { code: number } }).error.code, -32700);
    } finally {
      for (const c of clients) await c.close();
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, err);
  });

  it('an address that is not loopback: refused at start without --http-allow-remote (USAGE, exit 2)', () => {
    const r = skillctl(['mcp', ...REGISTRY, '--http', '0.0.0.0:0'], { cwd: tempDir('skillctl-mcp-http-remote-') });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /USAGE/);
    assert.match(r.stderr, /--http 0\.0\.0\.0:0 is not a loopback address/);
  });
});
