/**
 * `verify-pins --remote --mcp-token-file ORIGIN=FILE`: the bearer token of one MCP server, bound
 * to the origin (scheme://host[:port]) the user writes beside it. A lock names the servers
 * --remote contacts, and a lock is as untrusted as the change that brings it: one token sent to
 * every URL a lock records would go to any server a pull request adds. So each token goes only
 * to the pins whose URL has its origin; every other server is asked without one. (Loaded with
 * the command's options: nothing here but the parser's own work.)
 */
import { InvalidArgumentError } from 'commander';
import type { ServerAddress } from '../../../core/mcp-skills/index.js';

export interface TokenFor {
  /** `URL.origin`: the default port left out, the host lowercased. */
  readonly origin: string;
  readonly file: string;
}

/** commander's parser for each `--mcp-token-file ORIGIN=FILE`, collecting them. */
export function parseTokenFor(value: string, previous: readonly TokenFor[] = []): TokenFor[] {
  // An origin holds no '=', so the first one ends it; a file name may hold more.
  const eq = value.indexOf('=');
  const url = eq > 0 && URL.canParse(value.slice(0, eq)) ? new URL(value.slice(0, eq)) : undefined;
  const bare = url !== undefined && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (url === undefined || !bare || (url.protocol !== 'http:' && url.protocol !== 'https:') || eq === value.length - 1) {
    throw new InvalidArgumentError('give ORIGIN=FILE: the origin (http[s]://HOST[:PORT], no path) the token in FILE is sent to');
  }
  if (previous.some((t) => t.origin === url.origin)) throw new InvalidArgumentError(`${url.origin} is given twice`);
  return [...previous, { origin: url.origin, file: value.slice(eq + 1) }];
}

/** The token for `server`: only a URL whose origin is one the user gave a token for. */
export function tokenFor(server: ServerAddress, tokens: ReadonlyMap<string, string>): { bearerToken?: string } {
  const token = 'url' in server && URL.canParse(server.url) ? tokens.get(new URL(server.url).origin) : undefined;
  return token !== undefined ? { bearerToken: token } : {};
}
