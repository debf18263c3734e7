/**
 * Permission scopes and what one value of a scope covers. The manifest's requested and
 * required permissions and the host policy's allowlists use the same value forms, so the same
 * `covers` decides required ⊆ requested (at load) and requested ∩ policy (at run).
 *
 * Forms (docs/formats/manifest.md, "Permissions"):
 * - fs.read / fs.write: a path; relative paths are relative to the run's working directory.
 * - net.http: a URL prefix `scheme://host[:port][/path]`; host may start with `*.`; `scheme://*`
 *   alone stands for every host and port of the scheme (a generic fetcher's request, which only
 *   the host policy's own prefixes then narrow).
 * - exec: a command name (looked up on PATH) or an absolute path.
 * - env: an environment variable name.
 */
import { posix } from 'node:path';
import type { PermissionScope } from '../manifest/model.js';

export type ScopeValue =
  | { readonly scope: 'fs.read' | 'fs.write'; readonly path: string; readonly absolute: boolean }
  | {
      readonly scope: 'net.http';
      readonly protocol: 'http:' | 'https:';
      readonly host: string;
      readonly wildcard: boolean;
      readonly port: number;
      readonly path: string;
    }
  | { readonly scope: 'exec'; readonly command: string }
  | { readonly scope: 'env'; readonly name: string };

export type ParsedScopeValue = { readonly ok: true; readonly value: ScopeValue } | { readonly ok: false; readonly reason: string };

const CONTROL = /[\u0000-\u001f\u007f]/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function parsePath(scope: 'fs.read' | 'fs.write', raw: string): ParsedScopeValue {
  if (raw === '' || CONTROL.test(raw)) return { ok: false, reason: 'empty, or contains a control character' };
  if (raw.includes('\\')) return { ok: false, reason: 'use / as the path separator' };
  const segments = raw.split('/');
  if (segments.includes('..')) return { ok: false, reason: '`..` segments are not allowed' };
  // `.` alone (the working directory) and a leading `./` are plain; a `.` segment anywhere else
  // is ambiguous (`/tmp/./x`) and refused, as provenact's capability evaluation does.
  const rest = raw === '.' ? [] : raw.replace(/^(?:\.\/+)+/, '').split('/');
  if (rest.includes('.')) return { ok: false, reason: '`.` segments are not allowed' };
  const absolute = raw.startsWith('/');
  const normal = posix.normalize(raw).replace(/\/+$/, '');
  return { ok: true, value: { scope, path: normal === '' ? '/' : normal, absolute } };
}

/** `http://*` or `https://*`: any host, any port, any path of that scheme (port 0 stands for any). */
const ANY_HOST = /^(https?):\/\/\*\/?$/i;

function parseUrl(raw: string): ParsedScopeValue {
  if (CONTROL.test(raw) || /\s/.test(raw)) return { ok: false, reason: 'contains whitespace or a control character' };
  const any = ANY_HOST.exec(raw);
  if (any !== null) {
    const protocol = `${(any[1] as string).toLowerCase()}:` as 'http:' | 'https:';
    return { ok: true, value: { scope: 'net.http', protocol, host: '*', wildcard: true, port: 0, path: '/' } };
  }
  const wildcard = /^[a-z]+:\/\/\*\./i.test(raw);
  let url: URL;
  try {
    url = new URL(wildcard ? raw.replace('*.', 'wildcard-placeholder.') : raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'only http and https URLs' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'userinfo is not allowed in a URL' };
  if (url.search !== '' || url.hash !== '') return { ok: false, reason: 'a URL prefix has no query or fragment' };
  // Percent-encoded dots or slashes can smuggle traversal past a prefix check.
  if (/%2e|%2f|%5c/i.test(raw)) return { ok: false, reason: 'percent-encoded dots or slashes are not allowed' };
  if (url.pathname.split('/').some((s) => s === '..' || s === '.')) return { ok: false, reason: 'dot segments are not allowed' };
  let host = url.hostname;
  if (wildcard) host = host.replace(/^wildcard-placeholder\./, '');
  if (!host.startsWith('[') && !host.split('.').every((l) => HOST_LABEL.test(l))) {
    // Not named: a request URL's reason is recorded (url.ts), and a policy's or manifest's finding names the value.
    return { ok: false, reason: 'the host is not a plain DNS name or IP address' };
  }
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const path = url.pathname === '/' ? '/' : url.pathname.replace(/\/+$/, '');
  return { ok: true, value: { scope: 'net.http', protocol: url.protocol, host, wildcard, port, path } };
}

export function parseScopeValue(scope: PermissionScope, raw: string): ParsedScopeValue {
  switch (scope) {
    case 'fs.read':
    case 'fs.write':
      return parsePath(scope, raw);
    case 'net.http':
      return parseUrl(raw);
    case 'exec':
      if (raw.startsWith('/')) {
        const p = parsePath('fs.read', raw);
        return p.ok ? { ok: true, value: { scope: 'exec', command: posix.normalize(raw) } } : p;
      }
      return COMMAND_NAME.test(raw)
        ? { ok: true, value: { scope: 'exec', command: raw } }
        : { ok: false, reason: 'a command is a bare name or an absolute path' };
    case 'env':
      return ENV_NAME.test(raw) ? { ok: true, value: { scope: 'env', name: raw } } : { ok: false, reason: 'not a valid variable name' };
    default: {
      const never: never = scope;
      return never;
    }
  }
}

/** True when `child` equals `parent` or lies below it, on path-segment boundaries. */
export function pathWithin(child: string, parent: string): boolean {
  if (parent === '/' || parent === '.') return parent === '/' ? child.startsWith('/') : !child.startsWith('/');
  return child === parent || child.startsWith(parent + '/');
}

function hostCovers(outer: ScopeValue & { scope: 'net.http' }, host: string): boolean {
  if (!outer.wildcard) return host === outer.host;
  return host.endsWith('.' + outer.host);
}

/** Does `outer` (a granted or requested value) cover `inner` (a needed value)? */
export function covers(outer: ScopeValue, inner: ScopeValue): boolean {
  if (outer.scope !== inner.scope) return false;
  switch (outer.scope) {
    case 'fs.read':
    case 'fs.write': {
      const i = inner as typeof outer;
      if (outer.absolute !== i.absolute) return false;
      return pathWithin(i.path, outer.path);
    }
    case 'net.http': {
      const i = inner as typeof outer;
      if (outer.host === '*' && outer.port === 0) return outer.protocol === i.protocol;
      if (outer.protocol !== i.protocol || outer.port !== i.port) return false;
      if (i.wildcard && !outer.wildcard) return false;
      if (i.wildcard ? !(i.host === outer.host || i.host.endsWith('.' + outer.host)) : !hostCovers(outer, i.host)) return false;
      return outer.path === '/' || i.path === outer.path || i.path.startsWith(outer.path + '/');
    }
    case 'exec':
      return outer.command === (inner as typeof outer).command;
    case 'env':
      return outer.name === (inner as typeof outer).name;
    default: {
      const never: never = outer;
      return never;
    }
  }
}
