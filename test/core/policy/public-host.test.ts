// Whether a host is public, as verify-pins --remote asks of a lock's origins before contacting
// them and the OCI transport asks as it connects: an IP literal in any spelling a URL reads, a
// name any of whose answers is special (a resolver can rotate them), a name that does not resolve;
// and the connection-time lookup, which answers as dns.lookup does, one address or all of them.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { hostAddressCheck, publicOnlyLookup, specialLiteral, type AllAddresses, type HostLookup } from '../../../src/core/policy/public-host.js';

const answers = (table: Record<string, readonly string[]>): HostLookup => async (host) => table[host] ?? [];

describe('hostAddressCheck', () => {
  it('judges an IP literal as it is, bracketed or not, in every spelling a URL reads as IPv4', async () => {
    const never: HostLookup = () => assert.fail('a literal was looked up');
    for (const [host, address] of [
      ['127.0.0.1', '127.0.0.1'],
      ['169.254.169.254', '169.254.169.254'],
      ['[::1]', '::1'],
      ['::ffff:10.0.0.1', '::ffff:10.0.0.1'],
      ['2130706433', '127.0.0.1'],
      ['0x7f.1', '127.0.0.1'],
    ]) {
      assert.deepEqual(await hostAddressCheck(host as string, never), { kind: 'special', address }, host);
    }
    assert.deepEqual(await hostAddressCheck('93.184.215.14', never), { kind: 'public', address: '93.184.215.14' });
  });

  it('refuses a name when any answer is special, names that answer; a name that does not resolve is unresolved', async () => {
    const lookup = answers({ 'registry.example': ['93.184.215.14'], 'rebind.example': ['93.184.215.14', '10.0.0.5'] });
    assert.deepEqual(await hostAddressCheck('registry.example', lookup), { kind: 'public', address: '93.184.215.14' });
    assert.deepEqual(await hostAddressCheck('rebind.example', lookup), { kind: 'special', address: '10.0.0.5' });
    assert.deepEqual(await hostAddressCheck('gone.example', lookup), { kind: 'unresolved' });
    assert.deepEqual(await hostAddressCheck('gone.example', () => Promise.reject(new Error('ENOTFOUND'))), { kind: 'unresolved' });
  });

  it('resolves localhost with the system resolver, to loopback', async () => {
    const checked = await hostAddressCheck('localhost');
    assert.equal(checked.kind, 'special');
  });

  it('specialLiteral names only a special IP literal', () => {
    assert.equal(specialLiteral('[::1]'), '::1');
    assert.equal(specialLiteral('2130706433'), '127.0.0.1');
    assert.equal(specialLiteral('93.184.215.14'), undefined);
    assert.equal(specialLiteral('localhost'), undefined);
  });
});

describe('publicOnlyLookup', () => {
  type Answer = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined };
  const lookup = (host: string, all: boolean, resolver?: AllAddresses): Promise<Answer> =>
    new Promise((resolve) => publicOnlyLookup(resolver)(host, { all }, (err, address, family) => resolve({ err, address, family })));
  const PUBLIC: LookupAddress[] = [
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    { address: '93.184.215.14', family: 4 },
  ];
  const fixed = (table: LookupAddress[]): AllAddresses => (_host, options, callback) => {
    assert.equal(options.all, true, 'every address is asked for');
    callback(null, table);
  };

  it('answers a public name as dns.lookup does: all addresses when Node asks with all, else the first and its family', async () => {
    assert.deepEqual(await lookup('registry.example', true, fixed(PUBLIC)), { err: null, address: PUBLIC, family: undefined });
    assert.deepEqual(await lookup('registry.example', false, fixed(PUBLIC)), { err: null, address: PUBLIC[0]?.address, family: 6 });
  });

  it('fails a name any of whose answers is special, the others public', async () => {
    const { err } = await lookup('rebind.example', true, fixed([...PUBLIC, { address: '169.254.169.254', family: 4 }]));
    assert.deepEqual([err?.code, (err as { reason?: string } | null)?.reason], ['ENOTPUBLIC', '169.254.169.254 is not a public address']);
  });

  it('fails a name that resolves to loopback with ENOTPUBLIC and its reason, whether Node asks for one address or all', async () => {
    for (const all of [false, true]) {
      const { err } = await lookup('localhost', all);
      assert.equal(err?.code, 'ENOTPUBLIC');
      assert.match((err as { reason?: string }).reason ?? '', /^(127\.0\.0\.1|::1) is not a public address$/);
    }
  });

  it('passes a resolver failure on as it is', async () => {
    const { err } = await lookup('no-such-host.invalid', false);
    assert.ok(err !== null && err.code !== 'ENOTPUBLIC', String(err?.code));
  });
});
