// Threat: a tool of `skillctl mcp --http` reads the bearer token of that server (--http-token-file).
// The runs the server starts were kept from writing the file, not from reading it: a tool granted
// to read its folder (the default policy grants the working directory) answered the token to
// whoever called it, and with the token anyone who reaches the port starts sessions of their own.
// Now the file is secret to those runs: refused to built-ins (POLICY_PATH_SECRET) and, to the
// programs they start under bubblewrap, /dev/null on a mount that opens no device.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { authedTransport, startHttpMcp, type HttpMcp } from '../helpers/mcp-http.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'mcp-secret-token-5e1f0c2a9b7d4e3f';
const POLICY = 'cat.policy.yaml';

describe('threat: a tool run by `skillctl mcp --http` reads the token file of that server', () => {
  const dir = tempDir('skillctl-mcp-token-secret-');
  let server: HttpMcp | undefined;
  const client = new Client({ name: 'attacker', version: '0' });

  before(async () => {
    writeFileSync(join(dir, 'mcp.token'), `${TOKEN}\n`, { mode: 0o600 });
    writeFileSync(join(dir, POLICY), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [cat]\n');
    const args = ['--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--policy', POLICY, '--approve', 'shell', '--http-token-file', 'mcp.token'];
    server = await startHttpMcp(args, dir, { SKILLCTL_MCP_TOKEN: undefined });
    await client.connect(authedTransport(server.url, TOKEN));
    for (const capability_id of ['filesystem', 'shell']) await client.callTool({ name: 'capability_skill_load', arguments: { capability_id } });
  });
  after(async () => {
    await client.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

  it('fs_read_text of the token file: POLICY_PATH_SECRET, no token', async () => {
    const r = (await client.callTool({ name: 'filesystem__fs_read_text', arguments: { path: 'mcp.token' } })) as CallToolResult;
    assert.ok(!text(r).includes(TOKEN), 'the token leaked');
    assert.equal(r.isError, true, text(r));
    assert.match(text(r), /POLICY_PATH_SECRET/);
  });

  it('fs_read_text of the token through a link to it: POLICY_PATH_SECRET, no token', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync('mcp.token', join(dir, 'innocent.txt'));
    const r = (await client.callTool({ name: 'filesystem__fs_read_text', arguments: { path: 'innocent.txt' } })) as CallToolResult;
    assert.ok(!text(r).includes(TOKEN), 'the token leaked');
    assert.match(text(r), /POLICY_PATH_SECRET/);
  });

  it('shell_exec_safe `cat mcp.token` under bubblewrap: the file is empty there, no token', async () => {
    const r = (await client.callTool({ name: 'shell__shell_exec_safe', arguments: { argv: ['cat', 'mcp.token'] } })) as CallToolResult;
    assert.ok(!text(r).includes(TOKEN), 'the token leaked');
    assert.equal(r.isError, undefined, text(r));
    const out = r.structuredContent as { stdout: string; exit_code: number };
    // Read as empty (a bind of /dev/null), or refused: either way nothing of the file.
    assert.equal(out.stdout, '', text(r));
  });

  it('the server still serves: its token still opens a session', async () => {
    const other = new Client({ name: 'ok', version: '0' });
    await other.connect(authedTransport((server as HttpMcp).url, TOKEN));
    assert.ok((await other.listTools()).tools.length > 0);
    await other.close();
  });
});
