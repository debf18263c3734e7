/**
 * Where a registry's traffic may go, decided in one place: the registry's own origin (the only
 * one that gets credentials or has its 401s answered), and which URLs a redirect or a token realm
 * may name. The threat: a registry, or whoever controls a Location or WWW-Authenticate header,
 * sending the client (and the credentials it carries) over plain HTTP or to another host.
 */
import { SkillctlError } from '../errors.js';
import { isLoopback } from './reference.js';

/**
 * `scheme://host[:port]` as URL.origin spells it: host in lower case, IPv6 in its short form, the
 * scheme's default port dropped. A registry written `Host:443` or in capitals is still the
 * origin a same-host redirect resolves to, so it keeps its credentials.
 */
export function originOf(scheme: 'https' | 'http', registry: string): string {
  return new URL(`${scheme}://${registry}`).origin;
}

/** The registry's host name as URL spells it (lower case; IPv6 in brackets, short form). */
function hostOf(registry: string): string {
  return new URL(`http://${registry}`).hostname;
}

export interface SchemeRule {
  /** `host[:port]` of the registry. */
  readonly registry: string;
  /** --plain-http: the network path to the registry's host is trusted. */
  readonly plainHttp: boolean;
}

/**
 * Throws unless `url` (a redirect target, a token realm) may be fetched: HTTPS anywhere; plain
 * HTTP to a loopback host when the registry is on loopback too (nothing leaves the machine), or
 * with --plain-http to the registry's own host (any port: a token service beside the registry).
 * --plain-http trusts the path to that one host; a registry naming a plain HTTP URL on any other
 * host would have the client send a token request (with the credentials) or a pre-signed URL
 * where anyone on the way can read it. A remote registry naming a loopback realm would have the
 * credentials sent to whatever listens on that port of this machine, another user's process on a
 * shared host included.
 */
export function checkScheme(url: URL, rule: SchemeRule): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw new SkillctlError('OCI_REDIRECT_REFUSED', `${rule.registry} sent the client to a ${url.protocol} URL, which is not HTTP(S)`);
  const bare = (host: string): string => host.replace(/^\[|\]$/g, '');
  if (isLoopback(bare(url.hostname)) && isLoopback(bare(hostOf(rule.registry)))) return;
  if (rule.plainHttp && url.hostname === hostOf(rule.registry)) return;
  const hint = rule.plainHttp ? `--plain-http allows plain HTTP to ${hostOf(rule.registry)} only; ${url.hostname} must use HTTPS` : 'use HTTPS, or pass --plain-http if the registry is on a network you trust';
  throw new SkillctlError('OCI_PLAIN_HTTP_REFUSED', `${url.host} would be reached over plain HTTP`, { hint });
}
