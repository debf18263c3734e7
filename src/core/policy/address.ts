/**
 * Which resolved addresses a granted host name may lead to. A name in an allowlist means a
 * public service: if it resolves to loopback, a private network, link-local (cloud metadata at
 * 169.254.169.254) or any other special-purpose range, the request is refused, so a DNS answer
 * (or rebinding) cannot turn an allowed name into a door to the host's own network. Only an IP
 * literal the policy grants explicitly reaches such an address.
 */
import type * as Net from 'node:net';

const V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const V6: readonly (readonly [string, number])[] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];

/** node:net, loaded when the first address is checked rather than when skillctl starts. */
function net(): typeof Net {
  return process.getBuiltinModule('node:net');
}

let special: Net.BlockList | undefined;
function specialRanges(): Net.BlockList {
  if (special === undefined) {
    const list = new (net().BlockList)();
    for (const [n, p] of V4) list.addSubnet(n, p, 'ipv4');
    for (const [n, p] of V6) list.addSubnet(n, p, 'ipv6');
    special = list;
  }
  return special;
}

/** 4 or 6 for an IP address, 0 for anything else (node:net's isIP, loaded lazily). */
export function ipFamily(address: string): number {
  return net().isIP(address);
}

function hex4(a: number, b: number): string {
  return [a >> 8, a & 255, b >> 8, b & 255].join('.');
}

/** The IPv4 address embedded in an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address. */
function embeddedV4(address: string): string | undefined {
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const groups = expandV6(address);
  if (groups === undefined) return undefined;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) return hex4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return hex4(g6, g7);
  if (g0 === 0x2002) return hex4(g1, g2);
  return undefined;
}

function expandV6(address: string): number[] | undefined {
  if (address.includes('.')) return undefined;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const h = head === '' ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(Math.max(fill, 0)).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** True for an address outside the public unicast space (or not an IP address at all). */
export function isSpecialAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = ipFamily(bare);
  if (family === 4) return specialRanges().check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedV4(bare);
  if (v4 !== undefined) return isSpecialAddress(v4);
  return specialRanges().check(bare, 'ipv6');
}
