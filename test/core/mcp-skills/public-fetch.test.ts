// The MCP client's connections to a server that must be public (ConnectOptions.publicOnly, what
// verify-pins --remote asks of a lock's MCP origins): refused at a loopback name as the
// connection is made (the check before the session is the CLI's, and a name can resolve
// elsewhere the second time: DNS rebinding), and at a loopback literal before connecting, with
// PIN_ORIGIN_PRIVATE and nothing received. The fetch that carries them (nodeFetch) is checked
// against a real SDK server on loopback without the guard: a whole session, a same-origin
// redirect followed by the SDK through this fetch again (so each hop is checked), another
// origin's redirect refused.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectSkillServer, remoteDrift, ServerFailure, type McpOrigin } from '../../../src/core/mcp-skills/index.js';
import { nodeFetch, type FetchLike } from '../../../src/core/mcp-skills/public-fetch.js';
import { SERVED, SERVER } from '../../helpers/pull-mcp.js';
import { tempDir } from '../../helpers/tmp.js';

/** An HTTP server on `host` recording each request's method and path, answering with `answer`. */
async function recorder(host: string, answer: RequestListener): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    answer(req, res);
  });
  // `localhost` may resolve to ::1 first: listening on it takes both loopbacks where there are two.
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, seen };
}

const notFound: RequestListener = (_req, res) => void res.writeHead(404).end('not here');
const origin = (url: string): McpOrigin => ({ server: { url }, uri: 'skill://x/SKILL.md', files: [] });

describe('an MCP server that must be public (publicOnly)', () => {
  for (const [host, listen, why] of [
    ['localhost', 'localhost', /^http:\/\/localhost:\d+\/mcp: initialize was not sent: localhost resolved to (127\.0\.0\.1|::1) as the connection was made, not a public address$/],
    ['127.0.0.1', '127.0.0.1', /^http:\/\/127\.0\.0\.1:\d+\/mcp: initialize was not sent: 127\.0\.0\.1 is not a public address$/],
  ] as const) {
    it(`refuses ${host}: PIN_ORIGIN_PRIVATE at the lock's URL, nothing received; without publicOnly it is asked`, async () => {
      const s = await recorder(listen, notFound);
      const url = `http://${host}:${s.port}/mcp`;
      const found = await remoteDrift(origin(url), { cwd: process.cwd(), timeoutMs: 10_000, file: 'vendor/x', publicOnly: true });
      assert.deepEqual(found.map((d) => [d.code, d.file, d.pointer]), [['PIN_ORIGIN_PRIVATE', 'vendor/x', '/origin/mcp/server/url']]);
      assert.match(found[0]?.message ?? '', why);
      assert.deepEqual(s.seen, []);
      const asked = await remoteDrift(origin(url), { cwd: process.cwd(), timeoutMs: 10_000, file: 'vendor/x' });
      assert.deepEqual(asked.map((d) => d.code), ['MCP_PULL_SERVER_UNAVAILABLE']);
      assert.ok(s.seen.length > 0, 'not asked without publicOnly');
    });
  }

  it('refuses at connectSkillServer with a ServerFailure, whatever the bearer token', async () => {
    const s = await recorder('localhost', notFound);
    await assert.rejects(
      connectSkillServer({ url: `http://localhost:${s.port}/mcp` }, { cwd: process.cwd(), timeoutMs: 10_000, maxMessageBytes: 1 << 20, bearerToken: 'token-0123456789abcdef', publicOnly: true }),
      (err: unknown) => err instanceof ServerFailure && err.diagnostic.code === 'PIN_ORIGIN_PRIVATE',
    );
    assert.deepEqual(s.seen, []);
  });

  it('a redirect to another origin is not followed: MCP_PULL_SERVER_UNAVAILABLE, the other origin never asked', async () => {
    const other = await recorder('127.0.0.1', notFound);
    const s = await recorder('127.0.0.1', (_req, res) => void res.writeHead(307, { location: `http://127.0.0.1:${other.port}/mcp` }).end());
    const found = await remoteDrift(origin(`http://127.0.0.1:${s.port}/mcp`), { cwd: process.cwd(), timeoutMs: 10_000, file: 'vendor/x' });
    assert.deepEqual(found.map((d) => d.code), ['MCP_PULL_SERVER_UNAVAILABLE']);
    assert.match(found[0]?.message ?? '', /HTTP 307, a redirect that is not followed/);
    assert.deepEqual(other.seen, []);
  });
});

describe('nodeFetch (the fetch publicOnly sessions use), against a real SDK server on loopback', () => {
  let url = '';
  let server: ChildProcess | undefined;
  before(async () => {
    const portFile = join(tempDir('skillctl-public-fetch-'), 'port');
    server = spawn(process.execPath, [SERVER, '--dir', SERVED, '--http', portFile], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !existsSync(portFile); i++) await sleep(50);
    url = `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp`;
  });
  after(() => server?.kill());

  /** An SDK client connected over `fetch` (redirects within the origin followed by the SDK), recording in `fetched` every request it is asked for. */
  async function connect(fetch: FetchLike, target: string, fetched: string[] = []): Promise<Client> {
    const counted: FetchLike = (u, init) => {
      fetched.push(`${init?.method ?? 'GET'} ${String(u)}`);
      return fetch(u, init);
    };
    const client = new Client({ name: 'test', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(target), { fetch: counted, redirectPolicy: 'same-origin' }));
    return client;
  }

  it('carries a whole session as fetch does: initialize, a listing, a read', async () => {
    const [mine, theirs] = [await connect(nodeFetch({ publicOnly: false }), url), await connect(fetch, url)];
    try {
      const listed = await mine.listResources();
      assert.deepEqual(listed, await theirs.listResources());
      const first = listed.resources[0];
      assert.ok(first !== undefined);
      assert.deepEqual(await mine.readResource({ uri: first.uri }), await theirs.readResource({ uri: first.uri }));
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('never follows a redirect itself; the SDK follows one within the origin by asking it again', async () => {
    const hop = await recorder('127.0.0.1', (_req, res) => void res.writeHead(308, { location: url }).end());
    const redirect = await nodeFetch({ publicOnly: false })(`http://127.0.0.1:${hop.port}/mcp`, { method: 'POST', body: '{}', redirect: 'manual' });
    assert.equal(redirect.status, 308);
    assert.equal(redirect.headers.get('location'), url);
    assert.deepEqual(hop.seen, ['POST /mcp']);
    // Within one origin: the hop is one more request nodeFetch is asked for, so the guard sees its connection.
    const same = await recorder('127.0.0.1', (req, res) => void (req.url === '/old' ? res.writeHead(307, { location: '/moved' }).end() : res.writeHead(404).end()));
    const base = `http://127.0.0.1:${same.port}`;
    const fetched: string[] = [];
    await assert.rejects(connect(nodeFetch({ publicOnly: false }), `${base}/old`, fetched));
    assert.deepEqual(fetched, [`POST ${base}/old`, `POST ${base}/moved`]);
    assert.deepEqual(same.seen, ['POST /old', 'POST /moved']);
  });
});
