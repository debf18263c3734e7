import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings } from '../../helpers/builtin-cli.js';
import type { Fetched } from '../../helpers/skill-responses.js';

const ID = 'http.fetch_text';

const SPEC = '# Spec\n\nSome text — with a dash.\n';

describe('skillctl run http.fetch_text against a server on 127.0.0.1', () => {
  const p = new BuiltinProject('skillctl-e2e-http-');
  let server: Server;
  let base = '';
  let policy: string;

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url === '/docs/spec.md') return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(SPEC);
    if (req.url === '/docs/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('é'.repeat(50_000));
    if (req.url === '/docs/moved') return void res.writeHead(302, { location: '/docs/spec.md' }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('private data');
  };

  before(async () => {
    server = createServer(route);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The loopback address is reachable only because the policy names it.
    policy = await p.policy({ permissions: { 'net.http': [`${base}/docs`] } });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers the seed's example request with the seed's response, following a redirect hop it checked", async () => {
    const r = await p.plain(ID, { url: `${base}/docs/spec.md`, max_bytes: 131072 }, { policy });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { url: `${base}/docs/spec.md`, final_url: `${base}/docs/spec.md`, status: 200, mime: 'text/markdown', text: SPEC, bytes: Buffer.byteLength(SPEC), truncated: false });
    const moved = await p.run(ID, { url: `${base}/docs/moved` }, { policy });
    assert.deepEqual(expectOk<Fetched>(moved).final_url, `${base}/docs/spec.md`);
    const rec = await p.record(moved);
    assert.deepEqual(rec.policy.capabilities.used, [`net.http:${base}/docs`]);
  });

  it('truncates at max_bytes and at the policy cap with the whole output under it', async () => {
    const cut = expectOk<Fetched>(await p.run(ID, { url: `${base}/docs/big`, max_bytes: 101 }, { policy }));
    assert.deepEqual([cut.text, cut.bytes, cut.truncated], ['é'.repeat(50), 100, true]);
    const capped = await p.policy({ permissions: { 'net.http': [`${base}/docs`] }, limits: { max_output_bytes: '2KiB' } });
    const c = expectCapped<Fetched>(await p.run(ID, { url: `${base}/docs/big` }, { policy: capped }), 2048);
    assert.ok(c.truncated && c.bytes > 1500 && c.text === 'é'.repeat(c.bytes / 2), JSON.stringify(c).slice(0, 200));
  });

  it('records a refused URL as a net.http denial: exit 3 (the attacks: test/security/network.test.ts)', async () => {
    await expectDenied(p, await p.run(ID, { url: 'https://example.com/docs/spec.md' }, { policy }), 'net.http', 'POLICY_URL_DENIED');
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run(ID, { max_bytes: 1.5 }, { policy }), ['/max_bytes', '/url']);
    await expectSchemaFindings(p, await p.run(ID, { url: 'ftp://127.0.0.1/x', method: 'POST' }, { policy }), ['/method', '/url']);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 7);
  });
});
