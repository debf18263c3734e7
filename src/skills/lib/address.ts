/**
 * Which addresses http.fetch_text may connect to without the policy naming them: public
 * unicast only. Loopback, private (RFC 1918, unique-local), carrier-grade NAT, link-local
 * (where cloud metadata services live: 169.254.169.254, fd00:ec2::254), multicast, documentation,
 * benchmarking and reserved ranges are "special"; IPv4-mapped, NAT64 and 6to4 IPv6 forms are
 * judged by the IPv4 address they carry.
 */
import { BlockList, isIP } from 'node:net';

const SPECIAL_V4: readonly [string, number][] = [
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

const SPECIAL_V6: readonly [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const special = new BlockList();
for (const [net, prefix] of SPECIAL_V4) special.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_V6) special.addSubnet(net, prefix, 'ipv6');

/** The 8 groups of an IPv6 address as numbers. */
function groups(ip: string): number[] | undefined {
  let text = ip.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const o = (v4[1] as string).split('.').map(Number);
    text = text.slice(0, -(v4[1] as string).length) + `${(((o[0] ?? 0) << 8) | (o[1] ?? 0)).toString(16)}:${(((o[2] ?? 0) << 8) | (o[3] ?? 0)).toString(16)}`;
  }
  const [left, right] = text.split('::') as [string, string | undefined];
  const l = left === '' ? [] : left.split(':');
  const r = right === undefined ? [] : right === '' ? [] : right.split(':');
  const fill = right === undefined ? 0 : 8 - l.length - r.length;
  const all = [...l, ...Array<string>(fill).fill('0'), ...r].map((g) => parseInt(g, 16));
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

function v4From(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The IPv4 address an IPv6 address embeds (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(ip: string): string | undefined {
  const g = groups(ip);
  if (g === undefined) return undefined;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0) && (g6 !== 0 || g7 > 1)) return v4From(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4From(g6, g7);
  if (g0 === 0x2002) return v4From(g1, g2);
  return undefined;
}

/** True when `ip` is not a public unicast address (or is not an IP address at all). */
export function isSpecialAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return special.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedV4(bare);
  if (v4 !== undefined) return special.check(v4, 'ipv4');
  return special.check(bare, 'ipv6');
}
