/**
 * One HTTP GET for http.fetch_text, on a fresh connection whose address is checked: the host is
 * resolved by our own lookup, and a loopback, private, link-local or otherwise special address
 * is used only when the policy allows that address itself (a URL naming it). Since the check
 * runs when the connection is made, a DNS answer that changes between the policy check and
 * the connection (rebinding) cannot slip through.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isSpecialAddress } from './address.js';

export class AddressBlocked extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a loopback, private, link-local or reserved address the policy does not name`);
    this.name = 'AddressBlocked';
  }
}

/** May the skill connect to this special address? (The policy must allow a URL naming it.) */
export type AddressCheck = (address: string) => Promise<boolean>;

export function urlWithHost(url: URL, address: string): string {
  const u = new URL(url.href);
  u.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return u.href;
}

/** DNS, unless the policy already resolved the host: then only the address it checked. */
function resolveHost(pinned: string | undefined): typeof dnsLookup {
  if (pinned === undefined) return dnsLookup;
  return ((_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) =>
    cb(null, [{ address: pinned, family: isIP(pinned) }])) as unknown as typeof dnsLookup;
}

function guardedLookup(host: string, allowSpecial: AddressCheck, pinned: string | undefined): LookupFunction {
  const resolver = resolveHost(pinned);
  return (hostname, options, callback) => {
    resolver(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err !== null) return callback(err, '', 0);
      void (async () => {
        for (const a of addresses) {
          if (isSpecialAddress(a.address) && !(await allowSpecial(a.address))) throw new AddressBlocked(host, a.address);
        }
        return addresses;
      })().then(
        (ok) => {
          if ((options as { all?: boolean }).all === true) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
          else callback(null, (ok[0] as LookupAddress).address, (ok[0] as LookupAddress).family);
        },
        (e: Error) => callback(e as NodeJS.ErrnoException, '', 0),
      );
    });
  };
}

export interface GetResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The body, decompressed, at most `max + 1` bytes. */
  readonly body: Buffer;
}

function decoded(res: IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (enc === 'gzip' || enc === 'x-gzip') return res.pipe(createGunzip());
  if (enc === 'deflate') return res.pipe(createInflate());
  if (enc === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

export interface GetOptions {
  readonly max: number;
  readonly signal: AbortSignal;
  readonly allowSpecial: AddressCheck;
  readonly userAgent: string;
  /** The address the policy checked for this URL's host, when it resolved it: connect only there. */
  readonly pinned?: string;
}

/** GETs `url`; reads at most `max + 1` body bytes (so the caller can tell there was more). */
export function httpGet(url: URL, opts: GetOptions): Promise<GetResponse> {
  const { max, signal, allowSpecial, userAgent } = opts;
  return new Promise((resolve, reject) => {
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && isSpecialAddress(literal)) {
      // A literal address gets no lookup: check it here.
      void allowSpecial(literal).then((ok) => (ok ? start() : reject(new AddressBlocked(url.hostname, literal))), reject);
    } else {
      start();
    }
    function start(): void {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        agent: false,
        lookup: guardedLookup(url.hostname, allowSpecial, opts.pinned),
        signal,
        headers: { 'user-agent': userAgent, accept: 'text/*, application/json, application/xml;q=0.9, */*;q=0.1', 'accept-encoding': 'gzip, deflate, br' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const body = decoded(res);
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (): void => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, max + 1) });
          req.destroy();
        };
        body.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size > max) {
            body.removeAllListeners('data');
            done();
          }
        });
        body.on('end', done);
        body.on('error', reject);
        res.on('error', reject);
      });
      req.end();
    }
  });
}
