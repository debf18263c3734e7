// Where a registry's traffic may go: its origin as URL spells it (so a same-host redirect keeps
// the credentials however the registry was written), and the plain HTTP rule for redirects and
// token realms (loopback, or --plain-http to the registry's own host only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SkillctlError } from '../../../src/core/errors.js';
import { checkScheme, originOf } from '../../../src/core/oci/registry-origin.js';
import { Transport } from '../../../src/core/oci/transport.js';
import { NO_CREDENTIALS } from '../../../src/core/oci/credentials.js';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof SkillctlError);
    return err.code;
  }
}

describe('registry origin', () => {
  it('is spelt as URL.origin: lower case, the default port dropped, IPv6 in short form', () => {
    const cases: [Parameters<typeof originOf>, string][] = [
      [['https', 'Registry.Example.COM'], 'https://registry.example.com'],
      [['https', 'registry.example.com:443'], 'https://registry.example.com'],
      [['http', 'LOCALHOST:80'], 'http://localhost'],
      [['http', 'localhost:5000'], 'http://localhost:5000'],
      [['https', '[0:0:0:0:0:0:0:1]:5000'], 'https://[::1]:5000'],
    ];
    for (const [args, origin] of cases) {
      assert.equal(originOf(...args), origin);
      assert.equal(originOf(...args), new URL(`${origin}/v2/x/blobs/y`).origin);
    }
  });

  it('a Transport names its origin the same way (a redirect to it is same-origin)', () => {
    assert.equal(new Transport('Registry.Example.COM:443', 'Registry.Example.COM', { credentials: NO_CREDENTIALS }).origin(), 'https://registry.example.com');
    assert.equal(new Transport('Reg.LAN:80', 'Reg.LAN', { credentials: NO_CREDENTIALS, plainHttp: true }).origin(), 'http://reg.lan');
  });

  it('plain HTTP: loopback from a loopback registry; with --plain-http the registry\'s own host (any port) and no other', () => {
    const rule = { registry: 'Reg.LAN:5000', plainHttp: false };
    const plain = { ...rule, plainHttp: true };
    const local = { registry: '127.0.0.1:5000', plainHttp: false };
    const cases: [string, typeof rule, string | undefined][] = [
      ['https://storage.example.com/blob', rule, undefined],
      ['http://127.0.0.1:9000/token', local, undefined],
      ['http://[::1]:9000/token', local, undefined],
      ['http://localhost:9000/token', { registry: 'localhost:5000', plainHttp: false }, undefined],
      // A remote registry naming a realm on this machine: the credentials would go to whatever listens there.
      ['http://127.0.0.1:9000/token', rule, 'OCI_PLAIN_HTTP_REFUSED'],
      ['http://[::1]:9000/token', plain, 'OCI_PLAIN_HTTP_REFUSED'],
      ['http://reg.lan:5000/v2/', rule, 'OCI_PLAIN_HTTP_REFUSED'],
      ['http://reg.lan:5000/v2/', plain, undefined],
      ['http://reg.lan:5001/token', plain, undefined],
      ['http://auth.lan/token', plain, 'OCI_PLAIN_HTTP_REFUSED'],
      ['http://storage.example.com/blob', plain, 'OCI_PLAIN_HTTP_REFUSED'],
      ['ftp://reg.lan/blob', plain, 'OCI_REDIRECT_REFUSED'],
    ];
    for (const [url, r, code] of cases) assert.equal(codeOf(() => checkScheme(new URL(url), r)), code, `${url} plainHttp=${r.plainHttp}`);
  });
});
