/**
 * The form checks a requested URL passes before it is compared with the net.http allowlist.
 * They run on the raw string, because the WHATWG parser normalises `%2e%2e` and `/a/../b`
 * away: what a server receives must be what was checked.
 */
import { parseScopeValue, type ScopeValue } from './scopes.js';

const SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/s;

export type UrlForm =
  | { readonly ok: true; readonly url: URL; readonly value: ScopeValue & { scope: 'net.http' } }
  | { readonly ok: false; readonly reason: string };

/** A reason names no part of the URL: the skill chose it, and a refusal's reason is recorded. */
export function urlForm(raw: unknown): UrlForm {
  if (typeof raw !== 'string' || raw === '') return { ok: false, reason: 'not a non-empty string' };
  if (raw.length > 8192) return { ok: false, reason: 'longer than 8192 characters' };
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return { ok: false, reason: 'contains whitespace, a control character or a backslash' };
  const m = SHAPE.exec(raw);
  if (m === null) return { ok: false, reason: 'not an absolute URL with an authority (scheme://host/...)' };
  const [, scheme, authority, path, , fragment] = m as unknown as [string, string, string, string, string | undefined, string | undefined];
  if (!/^https?$/i.test(scheme)) return { ok: false, reason: 'the scheme is not http or https' };
  if (authority.includes('@')) return { ok: false, reason: 'userinfo (user@host) is not allowed' };
  if (authority.includes('*')) return { ok: false, reason: 'a request URL names one host, not a wildcard' };
  if (fragment !== undefined) return { ok: false, reason: 'a request URL has no fragment' };
  if (/%(?:2e|2f|5c|00)/i.test(path)) return { ok: false, reason: 'percent-encoded dots, slashes, backslashes or NUL in the path' };
  // A segment's parameters (`..;x`) are not part of its name to Tomcat, Jetty and Spring, which
  // read `/v1/..;/admin` as `/admin`: a dot segment all the same.
  if (path.split('/').some((s) => /^\.\.?(?:;|$)/.test(s))) return { ok: false, reason: 'dot segments in the path' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  const prefix = `${url.protocol}//${url.host}${url.pathname}`;
  const p = parseScopeValue('net.http', prefix);
  if (!p.ok) return { ok: false, reason: p.reason };
  return { ok: true, url, value: p.value as ScopeValue & { scope: 'net.http' } };
}
