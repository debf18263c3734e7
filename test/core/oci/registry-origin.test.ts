// A registry's origin as URL spells it, so a same-host redirect keeps the credentials however
// the registry was written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originOf } from '../../../src/core/oci/registry-origin.js';
import { Transport } from '../../../src/core/oci/transport.js';
import { NO_CREDENTIALS } from '../../../src/core/oci/credentials.js';

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
});
