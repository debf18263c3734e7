import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSpecialAddress } from '../../../src/core/policy/index.js';

describe('isSpecialAddress', () => {
  const special = [
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1', 'not-an-ip',
    // metadata services, CGNAT, site-local, and the embedded-IPv4 forms in every spelling
    '100.100.100.200', 'fd00:ec2::254', 'fec0::1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254', '2002:a9fe:a9fe::1',
    '0:0:0:0:0:ffff:127.0.0.1', '::FFFF:10.0.0.1', '::127.0.0.1', '64:ff9b:1::1', 'fe80::1%eth0',
  ];
  const pub = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '::ffff:8.8.8.8', '[2606:4700:4700::1111]', '2a00:1450:4001::1'];
  for (const a of special) it(`${a} is not public`, () => assert.equal(isSpecialAddress(a), true));
  for (const a of pub) it(`${a} is public`, () => assert.equal(isSpecialAddress(a), false));
});
