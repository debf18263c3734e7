// The run's certificate authority and the host certificates it signs, as the programs that must
// accept them see them: Node's X509Certificate, OpenSSL's verifier, and a real TLS handshake
// that checks the chain and the name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { describe, it } from 'node:test';
import { createRunAuthority } from '../../../../src/core/run/egress/cert.js';
import { tempDir } from '../../../helpers/tmp.js';

function handshake(ca: string, cert: { cert: string; key: string }, name: string, ip = false): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer({ cert: cert.cert, key: cert.key }, (s: TLSSocket) => s.end('hello'));
    // A refused handshake leaves the server's side to time out: the answer is the client's.
    server.on('tlsClientError', () => undefined);
    const done = (what: string): void => {
      server.close();
      resolve(what);
    };
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      const client = connect({ host: '127.0.0.1', port, ca, ...(ip ? {} : { servername: name }) });
      let got = '';
      client.on('data', (d: Buffer) => (got += d.toString()));
      client.on('end', () => done(got));
      client.on('error', (err: NodeJS.ErrnoException) => {
        client.destroy();
        done(`error ${err.code ?? err.message}`);
      });
    });
  });
}

describe('the egress proxy’s run authority', () => {
  const authority = createRunAuthority();

  it('is a CA certificate that signs host certificates for names and addresses, each valid for its own name only', () => {
    const ca = new X509Certificate(authority.certificate);
    assert.equal(ca.ca, true);
    assert.ok(ca.verify(ca.publicKey), 'self-signed');
    for (const host of ['api.example.com', '127.0.0.1', '::1', '2001:db8::5']) {
      const leaf = new X509Certificate(authority.issue(host).cert);
      assert.equal(leaf.ca, false, host);
      assert.ok(leaf.verify(ca.publicKey), host);
      assert.ok(leaf.checkIssued(ca), host);
      assert.equal(host.includes('.') && !/^\d/.test(host) ? leaf.checkHost(host) : leaf.checkIP(host), host);
    }
    assert.equal(new X509Certificate(authority.issue('api.example.com').cert).checkHost('other.example.com'), undefined);
    // One certificate a host for the run.
    assert.equal(authority.issue('api.example.com'), authority.issue('api.example.com'));
  });

  it("expires a day after it was made, and another run's authority is another", () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const made = new X509Certificate(createRunAuthority(now).certificate);
    assert.equal(new Date(made.validTo).toISOString(), '2026-11-30T12:00:00.000Z');
    assert.equal(new Date(made.validFrom).toISOString(), '2026-11-29T11:00:00.000Z');
    assert.notEqual(createRunAuthority().certificate, authority.certificate);
    // Each of its own name: with two of one name in a store, OpenSSL at times took the other as the issuer.
    assert.notEqual(new X509Certificate(createRunAuthority().certificate).subject, new X509Certificate(authority.certificate).subject);
  });

  it('writes DER OpenSSL parses, whatever the random serial (a serial drawn with a leading zero byte was illegal padding in one certificate of about 200)', () => {
    for (let i = 0; i < 300; i++) {
      const a = createRunAuthority();
      for (const pem of [a.certificate, a.issue('127.0.0.1').cert]) assert.doesNotThrow(() => new X509Certificate(pem));
    }
  });

  it("passes OpenSSL's strict verification for a TLS server", () => {
    const dir = tempDir('skillctl-cert-');
    writeFileSync(join(dir, 'ca.pem'), authority.certificate);
    writeFileSync(join(dir, 'leaf.pem'), authority.issue('api.example.com').cert);
    const out = execFileSync('openssl', ['verify', '-x509_strict', '-purpose', 'sslserver', '-verify_hostname', 'api.example.com', '-CAfile', join(dir, 'ca.pem'), join(dir, 'leaf.pem')], { encoding: 'utf8' });
    assert.match(out, /leaf\.pem: OK/);
  });

  it('serves TLS that a client trusting the authority accepts, and one that does not refuses', async () => {
    assert.equal(await handshake(authority.certificate, authority.issue('api.example.com'), 'api.example.com'), 'hello');
    assert.equal(await handshake(authority.certificate, authority.issue('127.0.0.1'), '127.0.0.1', true), 'hello');
    assert.equal(await handshake(authority.certificate, authority.issue('api.example.com'), 'other.example.com'), 'error ERR_TLS_CERT_ALTNAME_INVALID');
    assert.equal(await handshake(createRunAuthority().certificate, authority.issue('api.example.com'), 'api.example.com'), 'error UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });
});
