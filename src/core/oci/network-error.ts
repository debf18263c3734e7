/**
 * What a failed connection to a registry is called: one OCI_UNREACHABLE with the reason Node
 * gave (a code such as ECONNREFUSED, with OpenSSL's own words for a TLS failure) and a hint
 * that names the likely fix. Whether the connection failed before an answer or while a body
 * was read, it is the same code (docs/codes.md: a connection cut while a body was read).
 */
import { isSkillctlError, SkillctlError } from '../errors.js';

const HINT = 'check the host and port, the network, and (for HTTPS) the certificate: extra CAs go in NODE_EXTRA_CA_CERTS';

/**
 * OpenSSL's reason in a message: node:https's EPROTO has no `reason` field, only the error
 * string `...:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:<file>:<line>:`.
 */
function opensslReason(message: string): string | undefined {
  return /:error:[0-9A-Fa-f]+:[^:\n]*:[^:\n]*:([^:\n]+)/.exec(message)?.[1]?.trim();
}

/** The part of a network error worth showing: its code, and OpenSSL's reason for a TLS one. */
export function causeOf(err: unknown): string {
  const c = (err as { cause?: unknown } | undefined)?.cause ?? err;
  const e = (c ?? {}) as { code?: unknown; reason?: unknown; message?: unknown; errors?: { code?: unknown }[] };
  if (typeof e.code === 'string') {
    const reason = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? opensslReason(e.message) : undefined;
    return reason !== undefined ? `${e.code} (${reason})` : e.code;
  }
  const first = Array.isArray(e.errors) ? e.errors.find((x) => typeof x.code === 'string') : undefined;
  if (first !== undefined) return String(first.code);
  return typeof e.message === 'string' ? e.message : String(c);
}

/**
 * The TLS error a plain HTTP server causes (it answers the ClientHello with an HTTP response):
 * the only one that lets a loopback host fall back, and the one whose hint is --plain-http.
 */
export function spokePlainHttp(err: unknown): boolean {
  const e = (err ?? {}) as { code?: unknown; reason?: unknown; message?: unknown };
  if (e.code === 'ERR_SSL_WRONG_VERSION_NUMBER') return true;
  return /wrong version number|packet length too long/.test(`${String(e.reason ?? '')} ${String(e.message ?? '')}`);
}

function isAbort(err: unknown): err is Error {
  return err instanceof Error && err.name === 'AbortError';
}

/** A request to `url` that got no answer: OCI_UNREACHABLE (a SkillctlError, such as a refused body source, passes as it is). */
export function unreachable(err: unknown, url: string): SkillctlError {
  if (isSkillctlError(err)) return err;
  const host = new URL(url).host;
  // An abort (the idle timer, or the caller giving the request up) says why in its message.
  const why = isAbort(err) ? err.message : causeOf(err);
  const hint = spokePlainHttp(err) ? `${host} answered TLS in plain HTTP: if it is a plain HTTP registry on a network you trust, pass --plain-http` : HINT;
  return new SkillctlError('OCI_UNREACHABLE', `cannot reach ${host}: ${why}`, { cause: err, hint });
}

/** A response body whose connection failed (cut, reset, idle for too long) before its end: OCI_UNREACHABLE. */
export function bodyCut(err: unknown, where: string, progress: string): SkillctlError {
  if (isSkillctlError(err)) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new SkillctlError('OCI_UNREACHABLE', `${where}: the connection failed after ${progress} (${why})`, { cause: err, hint: 'check the network and try again' });
}
