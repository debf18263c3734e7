// A TLS failure is shown with OpenSSL's reason (node:https's EPROTO carries it in its message
// only), and a registry that speaks plain HTTP on a host that is not loopback gets a hint to
// --plain-http: the errors here are the real ones Node gives.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { NO_CREDENTIALS } from '../../../src/core/oci/credentials.js';
import { exchange } from '../../../src/core/net/http-exchange.js';
import { bodyCut, causeOf, unreachable } from '../../../src/core/oci/network-error.js';
import { Transport } from '../../../src/core/oci/transport.js';

describe('network errors', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((_req, res) => res.end('plain'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('HTTPS to a plain HTTP server: EPROTO with OpenSSL\'s reason, and a hint to --plain-http', async () => {
    const err = await exchange('GET', new URL(`https://127.0.0.1:${port}/v2/`), {}, undefined, () => undefined).response.then(
      () => assert.fail('TLS to a plain HTTP server succeeded'),
      (e: unknown) => e,
    );
    assert.match(causeOf(err), /^EPROTO \(wrong version number\)$/);
    const reported = unreachable(err, `https://registry.lan:${port}/v2/`);
    assert.equal(reported.code, 'OCI_UNREACHABLE');
    assert.match(reported.message, /wrong version number/);
    assert.match(reported.hint ?? '', /--plain-http/);
  });

  it('a registry off loopback that speaks plain HTTP: OCI_UNREACHABLE naming the reason and --plain-http, never a silent fall back', async () => {
    // Addressed by its IP, taken for a host that is not loopback: no fall back to plain HTTP.
    const transport = new Transport(`127.0.0.1:${port}`, 'registry.lan', { credentials: NO_CREDENTIALS, retries: 0 });
    const err = await transport.request('GET', '/v2/', { what: 'the API' }).then(
      () => assert.fail('the request succeeded over plain HTTP'),
      (e: unknown) => e,
    );
    assert.ok(isSkillctlError(err));
    assert.equal(err.code, 'OCI_UNREACHABLE');
    assert.match(err.message, /EPROTO \(wrong version number\)/);
    assert.match(err.hint ?? '', /--plain-http/);
  });

  it('other failures keep their code and the general hint', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const reported = unreachable(refused, 'https://127.0.0.1:1/v2/');
    assert.match(reported.message, /ECONNREFUSED$/);
    assert.doesNotMatch(reported.hint ?? '', /--plain-http/);
    assert.equal(bodyCut(new Error('the connection closed before the end of the body'), 'r: blob', '10 of 20 bytes').code, 'OCI_UNREACHABLE');
  });
});
