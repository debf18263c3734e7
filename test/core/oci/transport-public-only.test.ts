// A Transport with publicOnly (verify-pins --remote on a lock's origins) connects only to public
// addresses, checked as the connection is made: a name is resolved again then, so a check before
// the request would not bind where the socket goes (DNS rebinding). `localhost` here is the name
// whose answer is loopback: refused by the lookup guard (the pre-check is the CLI's), with
// OCI_UNREACHABLE naming ENOTPUBLIC, and the server receives nothing; an IP literal, which Node
// connects to without a lookup, is refused before connecting. Without publicOnly both connect.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { NO_CREDENTIALS } from '../../../src/core/oci/credentials.js';
import { Transport } from '../../../src/core/oci/transport.js';

describe('Transport publicOnly', () => {
  let server: Server;
  let port = 0;
  const seen: string[] = [];

  before(async () => {
    // Listening on both loopbacks: `localhost` may resolve to ::1 first.
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (host: string, publicOnly: boolean): Promise<unknown> =>
    new Transport(`${host}:${port}`, host.replace(/^\[|\]$/g, ''), { credentials: NO_CREDENTIALS, retries: 0, ...(publicOnly ? { publicOnly } : {}) })
      .request('GET', '/v2/', { what: 'the API root' })
      .then((reply) => reply.done());

  for (const [host, when] of [
    ['localhost', 'at connect time, by the lookup guard'],
    ['127.0.0.1', 'before connecting (a literal is not looked up)'],
  ] as const) {
    it(`refuses ${host}:<port> ${when}: OCI_UNREACHABLE naming ENOTPUBLIC, nothing received`, async () => {
      seen.length = 0;
      await assert.rejects(get(host, true), (err: unknown) => {
        assert.ok(isSkillctlError(err), String(err));
        assert.equal(err.code, 'OCI_UNREACHABLE');
        assert.match(err.message, /ENOTPUBLIC \((127\.0\.0\.1|::1) is not a public address\)/);
        return true;
      });
      assert.deepEqual(seen, []);
    });
  }

  it('without publicOnly connects to the loopback registry (plain HTTP after the TLS attempt)', async () => {
    seen.length = 0;
    await get('localhost', false);
    assert.deepEqual(seen, ['/v2/']);
  });
});
