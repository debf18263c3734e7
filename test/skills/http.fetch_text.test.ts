import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { isSpecialAddress } from '../../src/skills/lib/address.js';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';

const ID = 'http.fetch_text';

interface Fetched {
  url: string;
  final_url: string;
  status: number;
  mime: string;
  text: string;
  bytes: number;
  truncated: boolean;
}

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
    case '/public/jump':
      res.writeHead(301, { location: `http://127.0.0.1:${port}/private/secret` });
      return void res.end();
    case '/loop':
      res.writeHead(307, { location: '/loop' });
      return void res.end();
    case '/slow':
      return; // never answers
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

function ctxFor(http: string[], limits = {}): ReturnType<typeof fixtureContext> {
  return fixtureContext({ cwd: '/', policy: { http }, limits });
}

describe('http.fetch_text', () => {
  it("answers the seed's example request with the seed's response", async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = ctxFor([`${base}/`]);
    const out = okOutput<Fetched>(await runSkill(ID, { url: `${base}/spec.md`, max_bytes: 131072 }, ctx));
    assert.deepEqual(out, { url: `${base}/spec.md`, final_url: `${base}/spec.md`, status: 200, mime: 'text/markdown', text: SPEC, bytes: Buffer.byteLength(SPEC), truncated: false });
  });

  it('reads at most max_bytes, on a character boundary, decompressed bodies included', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = ctxFor([`${base}/`]);
    const big = okOutput<Fetched>(await runSkill(ID, { url: `${base}/big`, max_bytes: 1001 }, ctx));
    assert.deepEqual([big.text, big.bytes, big.truncated], ['é'.repeat(500), 1000, true]);
    const gz = okOutput<Fetched>(await runSkill(ID, { url: `${base}/gzip`, max_bytes: 5000 }, ctx));
    assert.deepEqual([gz.text.length, gz.truncated], [5000, true]);
    const capped = ctxFor([`${base}/`], { maxOutputBytes: 64 });
    assert.equal(okOutput<Fetched>(await runSkill(ID, { url: `${base}/big` }, capped.ctx)).bytes, 64);
  });

  it('decodes the charset, and reports status and mime of any answer', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = ctxFor([`${base}/`]);
    assert.equal(okOutput<Fetched>(await runSkill(ID, { url: `${base}/latin1` }, ctx)).text, 'café');
    const missing = okOutput<Fetched>(await runSkill(ID, { url: `${base}/missing` }, ctx));
    assert.deepEqual([missing.status, missing.mime], [404, 'text/html']);
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/image` }, ctx)), 'SKILL_BINARY_CONTENT');
  });

  it('follows redirects, checking every hop with the policy', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx, gate } = ctxFor([`${base}/`]);
    const out = okOutput<Fetched>(await runSkill(ID, { url: `${base}/redirect` }, ctx));
    assert.deepEqual([out.url, out.final_url, out.text], [`${base}/redirect`, `${base}/spec.md`, SPEC]);
    assert.deepEqual(gate.calls.filter((c) => c.op === 'url').map((c) => c.target), [`${base}/redirect`, `${base}/spec.md`]);
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/loop` }, ctx)), 'SKILL_REDIRECT_LIMIT');
  });

  it('is denied a redirect out of the allowed prefix, before the request is made', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = ctxFor([`${base}/public`]);
    seen.length = 0;
    assert.equal(denialCode(await runSkill(ID, { url: `${base}/public/jump` }, ctx)), 'SKILL_NOT_ALLOWED');
    assert.deepEqual(seen, ['/public/jump']);
    for (const url of [`${base}/private`, `http://127.0.0.2:${port}/public/x`, `http://user:pw@127.0.0.1:${port}/public/x`, `${base}/public/%2e%2e/private`]) {
      assert.equal(denialCode(await runSkill(ID, { url }, ctx)), 'SKILL_NOT_ALLOWED', url);
    }
    assert.deepEqual(seen, ['/public/jump']);
  });

  it('refuses a host name that resolves to loopback unless the policy names the address', async () => {
    seen.length = 0;
    const named = ctxFor([`http://localhost:${port}/`]);
    assert.equal(denialCode(await runSkill(ID, { url: `http://localhost:${port}/spec.md` }, named.ctx)), 'SKILL_ADDRESS_BLOCKED');
    assert.deepEqual(seen, [], 'no connection was made');
    const both = ctxFor([`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]);
    assert.equal(okOutput<Fetched>(await runSkill(ID, { url: `http://localhost:${port}/spec.md` }, both.ctx)).text, SPEC);
  });

  it('classifies loopback, private, link-local, metadata and reserved addresses as special', () => {
    const special = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', 'ff02::1', 'not-an-ip'];
    const open = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001::1'];
    for (const a of special) assert.equal(isSpecialAddress(a), true, a);
    for (const a of open) assert.equal(isSpecialAddress(a), false, a);
  });

  it('gives up at the time limit, and reports connection failures', async () => {
    const base = `http://127.0.0.1:${port}`;
    const slow = ctxFor([`${base}/`], { timeoutMs: 300 });
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/slow` }, slow.ctx)), 'SKILL_TIMED_OUT');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { ctx } = ctxFor([`http://127.0.0.1:${deadPort}/`]);
    assert.equal(errorCode(await runSkill(ID, { url: `http://127.0.0.1:${deadPort}/x` }, ctx)), 'SKILL_HTTP_FAILED');
  });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings(ID, {}), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/url' }]);
    assert.deepEqual(await inputFindings(ID, { url: 'ftp://example.com/x' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/url' }]);
    assert.deepEqual(await inputFindings(ID, { url: 'https://example.com/', max_bytes: 1.5 }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/max_bytes' }]);
  });
});
