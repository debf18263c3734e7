// The bearer token of a Streamable HTTP skill server (ConnectOptions.bearerToken): sent on the
// requests to the URL's origin, never to another one a redirect names; a 401 is
// MCP_PULL_SERVER_UNAUTHORIZED, worded by whether a token was sent; and a server that echoes the
// header it was sent does not get the token into a finding.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { DEFAULT_PULL_LIMITS, pullSkills, remoteDrift, type PullOptions } from '../../../src/core/mcp-skills/index.js';

const TOKEN = 'core-test-token-0123456789';

/** An HTTP server on loopback recording each request's headers, answering with `answer`. */
async function recorder(answer: RequestListener): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen, server };
}

const unauthorized: RequestListener = (_req, res) => void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end('{"error":"unauthorized"}');

const opts = (bearerToken?: string): PullOptions => ({ cwd: process.cwd(), timeoutMs: 10_000, limits: DEFAULT_PULL_LIMITS, ...(bearerToken !== undefined ? { bearerToken } : {}) });

describe('a Streamable HTTP server that requires a bearer token', () => {
  it('no token: MCP_PULL_SERVER_UNAUTHORIZED saying the server wants one, and no Authorization sent', async () => {
    const s = await recorder(unauthorized);
    const r = await pullSkills({ url: s.url }, { all: true }, opts());
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.file]), [['MCP_PULL_SERVER_UNAUTHORIZED', s.url]]);
    assert.match(r.diagnostics[0]?.message ?? '', /wants a bearer token/);
    assert.match(r.diagnostics[0]?.hint ?? '', /--mcp-token-file/);
    assert.ok(s.seen.length > 0 && s.seen.every((h) => h.authorization === undefined));
  });

  it('a token refused: MCP_PULL_SERVER_UNAUTHORIZED saying it was refused; the token was sent as Bearer, and is in no finding', async () => {
    const s = await recorder(unauthorized);
    const r = await pullSkills({ url: s.url }, { all: true }, opts(TOKEN));
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['MCP_PULL_SERVER_UNAUTHORIZED']);
    assert.match(r.diagnostics[0]?.message ?? '', /refused the bearer token sent/);
    assert.ok(!JSON.stringify(r).includes(TOKEN));
    assert.deepEqual(s.seen.map((h) => h.authorization), s.seen.map(() => `Bearer ${TOKEN}`));
    const drift = await remoteDrift({ server: { url: s.url }, uri: 'skill://x/SKILL.md', files: [] }, { cwd: process.cwd(), timeoutMs: 10_000, file: 'vendor/x', bearerToken: TOKEN });
    assert.deepEqual(drift.map((d) => [d.code, d.file]), [['MCP_PULL_SERVER_UNAUTHORIZED', 'vendor/x']]);
  });

  it('a redirect to another origin never carries the token there', async () => {
    const other = await recorder(unauthorized);
    const s = await recorder((_req, res) => void res.writeHead(307, { location: other.url }).end());
    const r = await pullSkills({ url: s.url }, { all: true }, opts(TOKEN));
    assert.equal(r.ok, false);
    assert.ok(s.seen.length > 0);
    assert.deepEqual(other.seen.map((h) => h.authorization ?? 'none'), other.seen.map(() => 'none'));
  });

  it('another HTTP error status is MCP_PULL_SERVER_UNAVAILABLE naming it, not an MCP error the server answered', async () => {
    for (const status of [403, 404, 500, 503]) {
      const s = await recorder((_req, res) => void res.writeHead(status, { 'content-type': 'text/plain' }).end('nope'));
      const r = await pullSkills({ url: s.url }, { all: true }, opts(TOKEN));
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['MCP_PULL_SERVER_UNAVAILABLE'], String(status));
      assert.match(r.diagnostics[0]?.message ?? '', new RegExp(`answered initialize with HTTP ${status}: `));
    }
  });

  it('a server that echoes the Authorization header in its error: the token is replaced in the finding', async () => {
    const s = await recorder((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const id = (JSON.parse(body) as { id?: unknown }).id ?? null;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: `you sent ${req.headers.authorization ?? ''}` } }));
      });
    });
    const r = await pullSkills({ url: s.url }, { all: true }, opts(TOKEN));
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['MCP_PULL_SERVER_ERROR']);
    assert.match(r.diagnostics[0]?.message ?? '', /you sent Bearer <token>/);
    assert.ok(!JSON.stringify(r).includes(TOKEN));
  });
});
