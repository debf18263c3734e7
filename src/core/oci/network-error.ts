/**
 * What a failed connection to a registry is called: one OCI_UNREACHABLE with the reason Node
 * gave (a code such as ECONNREFUSED) and a hint that names the likely fix.
 */
import { isSkillctlError, SkillctlError } from '../errors.js';

const HINT = 'check the host and port, the network, and (for HTTPS) the certificate: extra CAs go in NODE_EXTRA_CA_CERTS';

/** The part of a network error worth showing: its code, and the reason where Node gives one. */
export function causeOf(err: unknown): string {
  const c = (err as { cause?: unknown } | undefined)?.cause ?? err;
  const e = (c ?? {}) as { code?: unknown; reason?: unknown; message?: unknown; errors?: { code?: unknown }[] };
  // A TLS failure's code (EPROTO) says little without OpenSSL's reason.
  if (typeof e.code === 'string') return typeof e.reason === 'string' ? `${e.code} (${e.reason})` : e.code;
  const first = Array.isArray(e.errors) ? e.errors.find((x) => typeof x.code === 'string') : undefined;
  if (first !== undefined) return String(first.code);
  return typeof e.message === 'string' ? e.message : String(c);
}

/**
 * The TLS error a plain HTTP server causes (it answers the ClientHello with an HTTP response):
 * the only one that lets a loopback host fall back.
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
  return new SkillctlError('OCI_UNREACHABLE', `cannot reach ${host}: ${why}`, { cause: err, hint: HINT });
}
