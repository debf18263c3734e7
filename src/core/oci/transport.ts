/**
 * HTTP to one registry, over node:http and node:https (./http-exchange.ts says why not fetch).
 * Everything a registry does to a request is decided here, once:
 *
 * - the scheme: HTTPS (the system CAs plus NODE_EXTRA_CA_CERTS, which Node reads at start-up);
 *   plain HTTP only with `plainHttp`, or for a loopback host whose server answers TLS in plain HTTP
 *   (nothing leaves the machine, as docker treats localhost);
 * - authentication: a 401's `WWW-Authenticate` challenge is answered once per request (./auth.ts
 *   earns the header: Basic, or a Bearer token from the challenge's realm);
 * - redirects (GET and HEAD only) are followed by hand, at most MAX_REDIRECTS, never in a loop, and
 *   the credentials go only to the registry's own origin: a blob redirected to storage on another
 *   host is fetched without them (the threat: a registry, or whoever controls a Location header,
 *   harvesting tokens for another host); a streamed upload that is redirected is refused, never
 *   sent again elsewhere;
 * - 429 and 5xx are retried with exponential backoff (Retry-After honoured up to a cap) for
 *   requests that can be repeated; every other failure becomes one SkillctlError with a code, and
 *   the registry's own error message when it sent one.
 */
import { isSkillctlError, SkillctlError } from '../errors.js';
import { RegistryAuth } from './auth.js';
import type { CredentialStore } from './credentials.js';
import { abortError, exchange, type HttpResponse } from './http-exchange.js';
import { isLoopback } from './reference.js';
import { registryMessage } from './response-body.js';

export const MAX_REDIRECTS = 5;
const RETRY_AFTER_CAP_MS = 10_000;

export interface TransportOptions {
  /** Allow plain HTTP to a host that is not loopback (default false). */
  readonly plainHttp?: boolean;
  readonly credentials: CredentialStore;
  /** Retries after a 429 or 5xx (default 3). */
  readonly retries?: number;
  /** First backoff delay, doubled each retry (default 250 ms). */
  readonly backoffMs?: number;
  /** A request with no progress for this long is aborted (default 60 s). */
  readonly idleMs?: number;
}

export interface RequestInit {
  readonly headers?: Record<string, string>;
  /** A body that can be sent again (a retry or an auth round repeats it, re-opening a stream). */
  readonly body?: RequestBody;
  /** Statuses the caller handles itself (404 on a HEAD, say); others above 299 throw. */
  readonly accept?: readonly number[];
  /** Names the object in messages ("manifest repo:tag", "blob sha256:…"). */
  readonly what: string;
}

/**
 * A body streamed from a source that can be opened again (a file): sent as it is read, never
 * held whole, with its length announced. A retry or an auth round opens it anew. A piece may be
 * reused by the source once the next is asked for: each is handed to the socket before that.
 */
export interface StreamedBody {
  readonly length: number;
  open(): AsyncIterable<Uint8Array>;
}

export type RequestBody = Uint8Array | StreamedBody;

/** A response and the timer that aborts it when its body stalls: call `touch` per chunk, `done` at the end. */
export interface Reply {
  readonly response: HttpResponse;
  readonly url: string;
  touch(): void;
  done(): void;
}

function causeOf(err: unknown): string {
  const c = (err as { cause?: unknown }).cause ?? err;
  const e = c as { code?: unknown; reason?: unknown; message?: unknown; errors?: { code?: unknown }[] };
  // A TLS failure's code (EPROTO) says little without OpenSSL's reason.
  if (typeof e.code === 'string') return typeof e.reason === 'string' ? `${e.code} (${e.reason})` : e.code;
  const first = Array.isArray(e.errors) ? e.errors.find((x) => typeof x.code === 'string') : undefined;
  if (first !== undefined) return String(first.code);
  return typeof e.message === 'string' ? e.message : String(c);
}

/**
 * The TLS error a plain HTTP server causes: the only one that lets a loopback host fall back.
 * node:https reports it as EPROTO with OpenSSL's reason ("wrong version number") in the message.
 */
function spokePlainHttp(err: unknown): boolean {
  const e = err as { code?: unknown; reason?: unknown; message?: unknown };
  if (e.code === 'ERR_SSL_WRONG_VERSION_NUMBER') return true;
  return /wrong version number|packet length too long/.test(`${String(e.reason ?? '')} ${String(e.message ?? '')}`);
}

export class Transport {
  readonly registry: string;
  readonly hostname: string;
  private scheme: 'https' | 'http' | undefined;
  private readonly auth: RegistryAuth;
  private readonly opts: TransportOptions;

  constructor(registry: string, hostname: string, opts: TransportOptions) {
    this.registry = registry;
    this.hostname = hostname;
    this.opts = opts;
    if (opts.plainHttp === true) this.scheme = 'http';
    this.auth = new RegistryAuth(registry, opts.credentials, {
      get: (url, headers) => this.once('GET', url.href, headers, undefined).catch((e: unknown) => Promise.reject(this.unreachable(e, url.href))),
      checkScheme: (url) => this.checkScheme(url),
    });
  }

  /** The registry's origin, once the scheme is known (after the first request). */
  origin(): string {
    return `${this.scheme ?? 'https'}://${this.registry}`;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, ms));
  }

  /** One request, with the idle timer; network failures are thrown as they come (see `unreachable`). */
  private async once(method: string, url: string, headers: Record<string, string>, body: RequestBody | undefined): Promise<Reply> {
    const idle = this.opts.idleMs ?? 60_000;
    let abort = (): void => undefined;
    // Unreferenced: a stalled request is aborted, but the timer alone never keeps the process alive.
    const arm = (): NodeJS.Timeout => setTimeout(() => abort(), idle).unref();
    let timer = arm();
    const touch = (): void => {
      clearTimeout(timer);
      timer = arm();
    };
    const streamed = body !== undefined && !(body instanceof Uint8Array);
    const sent = streamed ? { ...headers, 'content-length': String(body.length) } : headers;
    const ex = exchange(method, new URL(url), sent, streamed ? body.open() : body, touch);
    abort = () => ex.abort(abortError('no answer in time'));
    const done = (): void => {
      clearTimeout(timer);
      ex.release();
    };
    try {
      return { response: await ex.response, url, touch, done };
    } catch (err) {
      done();
      throw err;
    }
  }

  private unreachable(err: unknown, url: string): SkillctlError {
    if (isSkillctlError(err)) return err;
    const why = (err as { name?: unknown }).name === 'AbortError' ? 'no answer in time' : causeOf(err);
    return new SkillctlError('OCI_UNREACHABLE', `cannot reach ${new URL(url).host}: ${why}`, { cause: err, hint: 'check the host and port, the network, and (for HTTPS) the certificate: extra CAs go in NODE_EXTRA_CA_CERTS' });
  }

  /** Chooses the scheme on first contact: HTTPS, or plain HTTP for a loopback server that speaks it. */
  private async first(method: string, path: string, headers: Record<string, string>, body: RequestBody | undefined): Promise<Reply> {
    try {
      const reply = await this.once(method, `https://${this.registry}${path}`, headers, body);
      this.scheme = 'https';
      return reply;
    } catch (err) {
      if (!isLoopback(this.hostname) || !spokePlainHttp(err)) throw this.unreachable(err, `https://${this.registry}${path}`);
      this.scheme = 'http';
      return this.once(method, `http://${this.registry}${path}`, headers, body).catch((e: unknown) => {
        throw this.unreachable(e, `http://${this.registry}${path}`);
      });
    }
  }

  /** Whether a URL (a redirect target, a token realm) may be fetched: HTTPS, or HTTP where allowed. */
  private checkScheme(url: URL): void {
    if (url.protocol === 'https:') return;
    if (url.protocol !== 'http:') throw new SkillctlError('OCI_REDIRECT_REFUSED', `${this.registry} sent the client to ${url.protocol} URL, which is not HTTP(S)`);
    if (this.opts.plainHttp === true || isLoopback(url.hostname.replace(/^\[|\]$/g, ''))) return;
    throw new SkillctlError('OCI_PLAIN_HTTP_REFUSED', `${url.host} would be reached over plain HTTP`, { hint: 'use HTTPS, or pass --plain-http if this network is trusted' });
  }

  /**
   * Sends `method path` to the registry and follows what it asks (auth, redirects, retries).
   * Returns the final response with a status below 300 or in `init.accept`; throws otherwise.
   */
  async request(method: string, path: string, init: RequestInit): Promise<Reply> {
    const canRepeat = method === 'GET' || method === 'HEAD' || method === 'PUT' || (method === 'POST' && init.body === undefined) || method === 'DELETE';
    let authRounds = 0;
    let retries = 0;
    for (;;) {
      const reply = await this.follow(method, path, init);
      const res = reply.response;
      if (res.status === 401 && authRounds === 0) {
        authRounds++;
        const answered = await this.auth.answer(res, init.what).catch(async (err: unknown) => {
          await res.body.cancel().catch(() => undefined);
          reply.done();
          throw err;
        });
        if (answered !== undefined) {
          await res.body.cancel().catch(() => undefined);
          reply.done();
          continue;
        }
      }
      if ((res.status === 429 || res.status >= 500) && canRepeat && retries < (this.opts.retries ?? 3)) {
        const after = Number(res.headers.get('retry-after'));
        const wait = Number.isFinite(after) && after > 0 ? Math.min(after * 1000, RETRY_AFTER_CAP_MS) : (this.opts.backoffMs ?? 250) * 2 ** retries;
        retries++;
        await res.body.cancel().catch(() => undefined);
        reply.done();
        await this.sleep(wait);
        continue;
      }
      if (res.status < 300 || init.accept?.includes(res.status) === true) return reply;
      const message = await registryMessage(res);
      reply.done();
      throw this.statusError(res.status, message, init.what, retries);
    }
  }

  private statusError(status: number, message: string, what: string, retries: number): SkillctlError {
    const at = `${this.registry}: ${what}`;
    if (status === 401) {
      const hasCredentials = this.auth.hasCredentials();
      return hasCredentials
        ? new SkillctlError('OCI_AUTH_DENIED', `${at}: the registry refused the credentials (${message})`, { hint: `check the entry for ${this.registry} in the Docker config file` })
        : new SkillctlError('OCI_AUTH_REQUIRED', `${at}: the registry requires credentials (${message})`, {
            hint: `add credentials for ${this.registry} to the Docker config file ($DOCKER_CONFIG/config.json or ~/.docker/config.json), e.g. with docker login`,
          });
    }
    if (status === 403) return new SkillctlError('OCI_AUTH_DENIED', `${at}: access denied (${message})`);
    if (status === 404) return new SkillctlError('OCI_NOT_FOUND', `${at}: not found (${message})`);
    if (status >= 300 && status < 400) return new SkillctlError('OCI_REDIRECT_REFUSED', `${at}: unexpected redirect (${message})`);
    if ((status === 429 || status >= 500) && retries > 0) return new SkillctlError('OCI_UNREACHABLE', `${at}: still failing after ${retries} retries (${message})`);
    return new SkillctlError('OCI_REGISTRY_ERROR', `${at}: ${message}`);
  }

  /** Follows redirects of GET/HEAD by hand: credentials only to the registry's origin. */
  private async follow(method: string, path: string, init: RequestInit): Promise<Reply> {
    const seen = new Set<string>();
    let url: string | undefined;
    for (let hops = 0; ; hops++) {
      const sameOrigin = url === undefined || new URL(url).origin === this.origin();
      const headers: Record<string, string> = { 'accept-encoding': 'identity', ...init.headers };
      const authorization = this.auth.header();
      if (sameOrigin && authorization !== undefined) headers.authorization = authorization;
      let reply: Reply;
      if (url === undefined) {
        reply = this.scheme === undefined ? await this.first(method, path, headers, init.body) : await this.once(method, `${this.origin()}${path}`, headers, init.body).catch((e: unknown) => Promise.reject(this.unreachable(e, `${this.origin()}${path}`)));
      } else {
        const target = url;
        reply = await this.once(method, target, headers, init.body).catch((e: unknown) => Promise.reject(this.unreachable(e, target)));
      }
      const res = reply.response;
      const location = res.headers.get('location');
      const redirected = [301, 302, 303, 307, 308].includes(res.status) && location !== null;
      if (redirected && init.body !== undefined && !(init.body instanceof Uint8Array)) {
        await res.body.cancel();
        reply.done();
        throw new SkillctlError('OCI_REDIRECT_REFUSED', `${new URL(reply.url).host}: an upload was redirected`);
      }
      if (!redirected || (method !== 'GET' && method !== 'HEAD')) return reply;
      await res.body.cancel().catch(() => undefined);
      reply.done();
      const next = new URL(location as string, reply.url);
      this.checkScheme(next);
      if (seen.has(next.href) || hops + 1 > MAX_REDIRECTS) {
        throw new SkillctlError('OCI_REDIRECT_REFUSED', `${this.registry}: ${init.what}: ${seen.has(next.href) ? 'the redirects loop' : `more than ${MAX_REDIRECTS} redirects`}`);
      }
      seen.add(next.href);
      url = next.href;
    }
  }
}
