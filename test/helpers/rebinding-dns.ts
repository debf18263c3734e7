/**
 * A DNS name that rebinds, for a skillctl process: a preload (given through NODE_OPTIONS) makes
 * `REBINDING_NAME` answer a public address to the first lookup of the process, through dns.lookup
 * or dns/promises alike, and 127.0.0.1 to every lookup after it. So a check made before a request
 * (verify-pins --remote's, of a lock's origins) sees a public host, and a connection that resolves
 * the name again reaches loopback: what a hostile resolver does with a short TTL. Every other
 * name is resolved as usual.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The name that rebinds (.test is reserved: no real resolver answers it). */
export const REBINDING_NAME = 'rebinding.skillctl.test';
/** What it answers first: a public address (nothing is ever sent to it). */
export const FIRST_ANSWER = '93.184.215.14';

const PRELOAD = `'use strict';
const dns = require('node:dns');
const NAME = ${JSON.stringify(REBINDING_NAME)};
let asked = 0;
const next = () => ({ address: asked++ === 0 ? ${JSON.stringify(FIRST_ANSWER)} : '127.0.0.1', family: 4 });
const lookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (host !== NAME) return lookup.apply(this, arguments);
  if (typeof options === 'function') [callback, options] = [options, {}];
  const all = typeof options === 'object' && options !== null && options.all === true;
  const a = next();
  process.nextTick(() => (all ? callback(null, [a]) : callback(null, a.address, a.family)));
  return {};
};
const promises = dns.promises;
const lookupP = promises.lookup;
promises.lookup = async (host, options) => {
  if (host !== NAME) return lookupP(host, options);
  const a = next();
  return typeof options === 'object' && options !== null && options.all === true ? [a] : a;
};
require('node:module').syncBuiltinESMExports();
`;

/** Writes the preload into `dir`; returns the environment that loads it in a skillctl process. */
export function rebindingDns(dir: string): Record<string, string> {
  const preload = join(dir, 'rebinding-dns.cjs');
  writeFileSync(preload, PRELOAD);
  return { NODE_OPTIONS: `--require ${preload}` };
}
