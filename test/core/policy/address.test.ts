import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSpecialAddress } from '../../../src/core/policy/index.js';

describe('isSpecialAddress', () => {
  const special = [
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:7f00:1::', '2001:db8::1', 'not-an-ip',
  ];
  const pub = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '[2606:4700:4700::1111]'];
  for (const a of special) it(`${a} is not public`, () => assert.equal(isSpecialAddress(a), true));
  for (const a of pub) it(`${a} is public`, () => assert.equal(isSpecialAddress(a), false));
});
