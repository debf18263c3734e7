import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { HostLookup } from '../../src/core/policy/index.js';
import type { PolicyGate } from '../../src/core/run/index.js';
import { skillContext, type SkillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import type { Fetched } from '../helpers/skill-responses.js';

const ID = 'http.fetch_text';

const SPEC = '# Spec\n\nSome text — with a dash.\n';
const seen: string[] = [];
const hosts: string[] = [];
let server: Server;
let port = 0;

function route(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req.url ?? '');
  hosts.push(req.headers.host ?? '');
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

async function ctxFor(http: string[], opts: { limits?: Record<string, string | number>; lookupHost?: HostLookup } = {}): Promise<SkillContext> {
  return skillContext(ID, {
    cwd: '/',
    policy: { http, ...(opts.limits !== undefined ? { limits: opts.limits } : {}) },
    ...(opts.lookupHost !== undefined ? { lookupHost: opts.lookupHost } : {}),
  });
}

/** The real gate's decisions, with `address` replaced (or removed) in the allowed ones. */
function withAddress(gate: PolicyGate, address: string | undefined): PolicyGate {
  return {
    checkRead: (p) => gate.checkRead(p),
    checkWrite: (p) => gate.checkWrite(p),
    checkExec: (argv) => gate.checkExec(argv),
    checkEnv: (name) => gate.checkEnv(name),
    checkUrl: async (url) => {
      const d = await gate.checkUrl(url);
      if (!d.allowed) return d;
      return address !== undefined ? { allowed: true, resolved: d.resolved, address } : { allowed: true, resolved: d.resolved };
    },
  };
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
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/loop` }, ctx)), 'SKILL_REDIRECT_LIMIT');
  });

  it('is denied a redirect out of the allowed prefix, before the request is made', async () => {
    const base = `http://127.0.0.1:${port}`;
    const { ctx } = await ctxFor([`${base}/public`]);
    seen.length = 0;
    assert.equal(denialCode(await runSkill(ID, { url: `${base}/public/jump` }, ctx)), 'POLICY_URL_DENIED');
    assert.deepEqual(seen, ['/public/jump']);
    for (const url of [`${base}/private`, `http://127.0.0.2:${port}/public/x`, `${base}/publicity`]) {
      assert.equal(denialCode(await runSkill(ID, { url }, ctx)), 'POLICY_URL_DENIED', url);
    }
    for (const url of [`http://user:pw@127.0.0.1:${port}/public/x`, `${base}/public/%2e%2e/private`, `${base}/public/../private`]) {
      assert.equal(denialCode(await runSkill(ID, { url }, ctx)), 'POLICY_URL_INVALID', url);
    }
    // The denial names the URL as requested, not as parsing normalises it (which hides the dots).
    for (const url of [`${base}/public/%2e%2e/private`, `${base}/public/../private`]) {
      const out = await runSkill(ID, { url }, ctx);
      assert.equal(out.status === 'denied' ? out.operation : undefined, `fetch ${url}`);
    }
    assert.deepEqual(seen, ['/public/jump']);
  });

  it('refuses a host name that resolves to loopback; only the literal address the policy names is reached', async () => {
    seen.length = 0;
    const both = await ctxFor([`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]);
    assert.equal(denialCode(await runSkill(ID, { url: `http://localhost:${port}/spec.md` }, both.ctx)), 'POLICY_ADDRESS_PRIVATE');
    // Every answer counts: a resolver that also hands out a private address is refused.
    const mixed = await ctxFor([`http://mixed.invalid:${port}/`], { lookupHost: async () => ['93.184.216.34', '10.0.0.1'] });
    assert.equal(denialCode(await runSkill(ID, { url: `http://mixed.invalid:${port}/spec.md` }, mixed.ctx)), 'POLICY_ADDRESS_PRIVATE');
    assert.deepEqual(seen, [], 'no connection was made');
    assert.equal(okOutput<Fetched>(await runSkill(ID, { url: `http://127.0.0.1:${port}/spec.md` }, both.ctx)).text, SPEC);
  });

  it('connects to the address the policy checked, without looking the name up again (DNS pinning)', async () => {
    // pinned.invalid resolves nowhere (RFC 6761): the fetch can succeed only by connecting to the
    // decision's address. The gate's own answer is the public address its resolver gave, which no
    // test can serve, so that address is pointed at the test server (whose literal is granted too).
    const { ctx, gate } = await ctxFor([`http://pinned.invalid:${port}/`, `http://127.0.0.1:${port}/`], { lookupHost: async () => ['93.184.216.34'] });
    seen.length = 0;
    const out = okOutput<Fetched>(await runSkill(ID, { url: `http://pinned.invalid:${port}/spec.md` }, { ...ctx, policy: withAddress(gate, '127.0.0.1') }));
    assert.deepEqual([out.final_url, out.text], [`http://pinned.invalid:${port}/spec.md`, SPEC]);
    assert.deepEqual(seen, ['/spec.md']);
    assert.equal(hosts.at(-1), `pinned.invalid:${port}`, 'the Host header keeps the name');
    // Without the decision's address the skill would have to look the name up: it does not resolve.
    const unpinned = await runSkill(ID, { url: `http://pinned.invalid:${port}/spec.md` }, { ...ctx, policy: withAddress(gate, undefined) });
    assert.equal(errorCode(unpinned), 'SKILL_HTTP_FAILED');
  });

  it('under a gate that does not pin, checks the address of each connection itself', async () => {
    // The gate allows localhost (its resolver said public) and gives no address: the skill's own
    // lookup finds loopback when it connects, and uses it only if the policy names that literal.
    const lookupHost = async (): Promise<string[]> => ['93.184.216.34'];
    const only = await ctxFor([`http://localhost:${port}/`], { lookupHost });
    seen.length = 0;
    const refused = await runSkill(ID, { url: `http://localhost:${port}/spec.md` }, { ...only.ctx, policy: withAddress(only.gate, undefined) });
    assert.equal(denialCode(refused), 'POLICY_ADDRESS_PRIVATE');
    assert.equal((refused as { decision: { scope?: string } }).decision.scope, 'net.http');
    assert.deepEqual(seen, [], 'no connection was made');
    const named = await ctxFor([`http://localhost:${port}/`, `http://127.0.0.1:${port}/`, `http://[::1]:${port}/`], { lookupHost });
    const out = okOutput<Fetched>(await runSkill(ID, { url: `http://localhost:${port}/spec.md` }, { ...named.ctx, policy: withAddress(named.gate, undefined) }));
    assert.equal(out.text, SPEC);
  });

  it('gives up at the time limit, and reports connection failures', async () => {
    const base = `http://127.0.0.1:${port}`;
    const slow = await ctxFor([`${base}/`], { limits: { max_execution_time: '300ms' } });
    assert.equal(errorCode(await runSkill(ID, { url: `${base}/slow` }, slow.ctx)), 'SKILL_TIMED_OUT');
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
