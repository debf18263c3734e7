import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { skillContext, type SkillContext } from '../helpers/skill-context.js';
import { errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import type { Fetched } from '../helpers/skill-responses.js';

const ID = 'http.fetch_text';

const SPEC = '# Spec\n\nSome text — with a dash.\n';
const seen: string[] = [];
let server: Server;
let port = 0;

function route(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req.url ?? '');
  const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  };
  switch (req.url) {
    case '/spec.md':
      return send(200, 'text/markdown; charset=utf-8', SPEC);
    case '/big':
      return send(200, 'text/plain', 'é'.repeat(100_000));
    case '/gzip':
      return send(200, 'text/plain', gzipSync(Buffer.from('z'.repeat(1_000_000))), { 'content-encoding': 'gzip' });
    case '/latin1':
      return send(200, 'text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    case '/missing':
      return send(404, 'text/html', '<h1>not here</h1>');
    case '/image':
      return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    case '/redirect':
      res.writeHead(302, { location: '/spec.md' });
      return void res.end();
    default:
      return send(200, 'text/plain', 'private data');
  }
}

before(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function ctxFor(http: string[], opts: { limits?: Record<string, string | number> } = {}): Promise<SkillContext> {
  return skillContext(ID, {
    cwd: '/',
    policy: { http, ...(opts.limits !== undefined ? { limits: opts.limits } : {}) },
  });
}

describe('http.fetch_text', () => {
  it("answers the seed's example request with the seed's response", async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx, gate } = await ctxFor([`${base}/`]);
    const out = okOutput<Fetched>(await runSkill(ID, { url: `${base}/spec.md`, max_bytes: 131072 }, ctx));
    assert.deepEqual(out, { url: `${base}/spec.md`, final_url: `${base}/spec.md`, status: 200, mime: 'text/markdown', text: SPEC, bytes: Buffer.byteLength(SPEC), truncated: false });
    assert.deepEqual(gate.uses, [{ scope: 'net.http', allowed: true, covered_by: `net.http:${base}/` }]);
  });

  it('reads at most max_bytes, on a character boundary, decompressed bodies included', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = await ctxFor([`${base}/`]);
    const big = okOutput<Fetched>(await runSkill(ID, { url: `${base}/big`, max_bytes: 1001 }, ctx));
    assert.deepEqual([big.text, big.bytes, big.truncated], ['é'.repeat(500), 1000, true]);
    const gz = okOutput<Fetched>(await runSkill(ID, { url: `${base}/gzip`, max_bytes: 5000 }, ctx));
    assert.deepEqual([gz.text.length, gz.truncated], [5000, true]);
    // Clamped to the host's cap, then cut so that the whole response fits it.
    const capped = await ctxFor([`${base}/`], { limits: { max_output_bytes: 400 } });
    const c = okOutput<Fetched>(await runSkill(ID, { url: `${base}/big` }, capped.ctx));
    assert.ok(c.truncated && c.bytes > 100 && c.text === 'é'.repeat(c.bytes / 2), JSON.stringify(c));
    assert.ok(Buffer.byteLength(JSON.stringify(c)) <= 400);
  });

  it('decodes the charset, and reports status and mime of any answer', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = await ctxFor([`${base}/`]);
    assert.equal(okOutput<Fetched>(await runSkill(ID, { url: `${base}/latin1` }, ctx)).text, 'café');
    const missing = okOutput<Fetched>(await runSkill(ID, { url: `${base}/missing` }, ctx));
    assert.deepEqual([missing.status, missing.mime], [404, 'text/html']);
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/image` }, ctx)), 'SKILL_BINARY_CONTENT');
  });

  it('follows redirects, checking every hop with the policy', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx, gate } = await ctxFor([`${base}/`]);
    seen.length = 0;
    const out = okOutput<Fetched>(await runSkill(ID, { url: `${base}/redirect` }, ctx));
    assert.deepEqual([out.url, out.final_url, out.text], [`${base}/redirect`, `${base}/spec.md`, SPEC]);
    assert.deepEqual(seen, ['/redirect', '/spec.md']);
    assert.equal(gate.uses.filter((u) => u.scope === 'net.http' && u.allowed).length, 2, 'one check per hop');
  });

  it('names a refused URL as requested, not as parsing normalises it (the attacks: test/security/network.test.ts)', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = await ctxFor([`${base}/public`]);
    // Parsing would hide the dots; the denial shows them.
    for (const url of [`${base}/public/%2e%2e/private`, `${base}/public/../private`]) {
      const out = await runSkill(ID, { url }, ctx);
      assert.equal(out.status === 'denied' ? out.operation : undefined, `fetch ${url}`);
    }
  });
  it('reports connection failures', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { ctx } = await ctxFor([`http://127.0.0.1:${deadPort}/`]);
    assert.equal(errorCode(await runSkill(ID, { url: `http://127.0.0.1:${deadPort}/x` }, ctx)), 'SKILL_HTTP_FAILED');
  });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/url' }]);
    assert.deepEqual(await inputFindings(ID, { url: 'ftp://example.com/x' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/url' }]);
    assert.deepEqual(await inputFindings(ID, { url: 'https://example.com/', max_bytes: 1.5 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_bytes' }]);
  });
});
