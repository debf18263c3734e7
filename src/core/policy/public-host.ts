/**
 * Whether a host is a public address, for requests whose destination comes from untrusted input
 * (the policy gate's URLs, a lock file's origins) rather than from the user. The classification
 * is address.ts's. Two checks, for two moments: `hostAddressCheck` before anything is sent (so a
 * refusal can name the host and the address), and `publicOnlyLookup` as the connection is made:
 * the client resolves the name again, and a resolver may answer otherwise the second time (DNS
 * rebinding), so a check before the request alone is not enough.
 */
import type * as Dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { ipFamily, isSpecialAddress } from './address.js';

/** Resolves a host name to its addresses (injectable for tests; default: the system resolver). */
export type HostLookup = (host: string) => Promise<readonly string[]>;

// node:dns is loaded on the first name lookup, not when skillctl starts.
export const systemLookup: HostLookup = async (host) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

/** What a host is: an address outside the public space (the first such answer), public, or a name that does not resolve. */
export type HostAddress =
  | { readonly kind: 'special'; readonly address: string }
  | { readonly kind: 'public'; readonly address: string }
  | { readonly kind: 'unresolved' };

/**
 * The address `host` names when it is an IP literal (bracketed or not, with a zone or not), or a
 * name a URL reads as an IPv4 address (`2130706433`, `0x7f.1` are 127.0.0.1), since that is where
 * a request to it goes; undefined for a name.
 */
function literalOf(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  if (ipFamily(bare) !== 0) return bare;
  try {
    const read = new URL(`http://${bare}/`).hostname;
    return ipFamily(read) === 4 ? read : undefined;
  } catch {
    return undefined;
  }
}

/** The address `host` names when it is an IP literal outside the public space; undefined otherwise (a name, or a public address). */
export function specialLiteral(host: string): string | undefined {
  const literal = literalOf(host);
  return literal !== undefined && isSpecialAddress(literal) ? literal : undefined;
}

/**
 * Whether `host` (a name, or an IP literal) is public. A literal is judged as it is; a name is
 * resolved, and is special when any answer is: a resolver can rotate answers between this check
 * and the connection.
 */
export async function hostAddressCheck(host: string, lookup: HostLookup = systemLookup): Promise<HostAddress> {
  const literal = literalOf(host);
  if (literal !== undefined) return { kind: isSpecialAddress(literal) ? 'special' : 'public', address: literal };
  let addresses: readonly string[];
  try {
    addresses = await lookup(host);
  } catch {
    addresses = [];
  }
  const first = addresses[0];
  if (first === undefined) return { kind: 'unresolved' };
  const special = addresses.find(isSpecialAddress);
  return special !== undefined ? { kind: 'special', address: special } : { kind: 'public', address: first };
}

/** A connection to `host` refused because `address` is not public: `reason` is what network-error.ts's causeOf shows beside the code. */
export function notPublicError(host: string, address: string): NotPublicError {
  const reason = `${address} is not a public address`;
  return Object.assign(new Error(`${host}: ${reason}`), { code: 'ENOTPUBLIC' as const, reason, host, address });
}

export type NotPublicError = Error & { readonly code: 'ENOTPUBLIC'; readonly reason: string; readonly host: string; readonly address: string };

/** dns.lookup asked for every address (injectable for tests). */
export type AllAddresses = (hostname: string, options: Dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: Dns.LookupAddress[]) => void) => void;

// node:dns is loaded on the first connection, not when skillctl starts.
const systemAll: AllAddresses = (hostname, options, callback) => (process.getBuiltinModule('node:dns') as typeof Dns).lookup(hostname, options, callback);

/**
 * A `lookup` for http.request and net.connect that fails with ENOTPUBLIC when any address the
 * name resolves to is special, and otherwise answers as dns.lookup would: one address, or all of
 * them when Node asks with `all` (as it does to try each family in turn). The connection then goes
 * to an address this very answer held, so no second answer can lead elsewhere. It is not asked
 * for an IP literal (Node connects to it as it is): check that with `specialLiteral`.
 */
export function publicOnlyLookup(resolve: AllAddresses = systemAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) return callback(err, '', 0);
      const special = addresses.find((a) => isSpecialAddress(a.address));
      if (special !== undefined) return callback(notPublicError(hostname, special.address), '', 0);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
