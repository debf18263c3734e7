/**
 * The registry's own origin, spelt one way: the only origin that gets credentials or has its
 * 401s answered. The threat: a registry, or whoever controls a Location header, sending the
 * client (and the credentials it carries) to another host.
 */

/**
 * `scheme://host[:port]` as URL.origin spells it: host in lower case, IPv6 in its short form, the
 * scheme's default port dropped. A registry written `Host:443` or in capitals is still the
 * origin a same-host redirect resolves to, so it keeps its credentials.
 */
export function originOf(scheme: 'https' | 'http', registry: string): string {
  return new URL(`${scheme}://${registry}`).origin;
}
