/**
 * HTTP to one registry, over node:http and node:https (../net/http-exchange.ts says why not fetch).
 * Everything a registry does to a request is decided here, once:
 *
 * - the scheme: HTTPS (the system CAs plus NODE_EXTRA_CA_CERTS, which Node reads at start-up);
 *   plain HTTP only with `plainHttp`, or for a loopback host whose server answers TLS in plain HTTP
 *   (nothing leaves the machine, as docker treats localhost); redirects and token realms follow
 *   the rule of ./registry-origin.ts;
 * - authentication: a 401 from the registry's own origin has its `WWW-Authenticate` challenge
 *   answered once per request (./auth.ts earns the header: Basic, or a Bearer token from the
 *   challenge's realm, fetched again when the one sent has expired); a 401 from anywhere else is
 *   reported, never answered: a host a blob was redirected to could otherwise name any realm
 *   and be sent the registry's credentials;
 * - redirects (GET and HEAD only) are followed by hand, at most MAX_REDIRECTS, never in a loop, and
 *   the credentials go only to the registry's own origin: a blob redirected to storage on another
 *   host is fetched without them (the threat: a registry, or whoever controls a Location header,
 *   harvesting tokens for another host); a streamed upload that is redirected is refused, never
 *   sent again elsewhere;
 * - 429 and 5xx are retried with exponential backoff (Retry-After honoured up to a cap) for
 *   requests that can be repeated; every other failure becomes one SkillctlError with a code, and
 *   the registry's own error message when it sent one;
 * - time: a request with no progress for `idleMs` is aborted; with a `deadline` (./deadline.ts)
 *   every request, its token fetch, its back-off and the reading of its body are given up once
 *   the deadline passes, except the requests that tidy up after a failure.
 */
import { SkillctlError } from '../errors.js';
import { RegistryAuth } from './auth.js';
import { linkedSignal, reasonOf, sleep, type Stop } from './deadline.js';
import { abortError, exchange } from '../net/index.js';
import { spokePlainHttp, unreachable } from './network-error.js';
import { isLoopback } from './reference.js';
import { checkScheme, originOf } from './registry-origin.js';
import { registryMessage } from './response-body.js';
import { statusError } from './status-error.js';
import type { Reply, RequestBody, RequestInit, TransportOptions } from './transport-types.js';

export type { Reply, RequestBody, RequestInit, StreamedBody, TransportOptions } from './transport-types.js';

export const MAX_REDIRECTS = 5;
const RETRY_AFTER_CAP_MS = 10_000;
/**
 * How long a request that tidies up after a failure may take: cancelling an upload session is
 * best effort (the registry expires it anyway), and must not hold a command that failed, least
 * of all one that failed because its deadline passed.
 */
const CLEANUP_MS = 5_000;

/** The final answer of a request's redirects, and the Authorization header that hop carried. */
interface Followed {
  readonly reply: Reply;
  readonly authorization: string | undefined;
  /** Whether the answer came from the registry's own origin (not a host it redirected to). */
  readonly own: boolean;
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
      // Under the signal of the request whose 401 it answers: a token service that never answers
      // is given up with that request, not left to the idle timer.
      get: (url, headers, signal) => this.once('GET', url.href, headers, undefined, signal).catch((e: unknown) => Promise.reject(unreachable(e, url.href))),
      checkScheme: (url) => this.checkScheme(url),
    });
  }

  /** The registry's origin as URL.origin spells it (./registry-origin.ts), once the scheme is known (after the first request). */
  origin(): string {
    return originOf(this.scheme ?? 'https', this.registry);
  }

  /** One request, with the idle timer; network failures are thrown as they come (see `unreachable`). */
  private async once(method: string, url: string, headers: Record<string, string>, body: RequestBody | undefined, signal: AbortSignal | undefined): Promise<Reply> {
    if (signal?.aborted === true) throw reasonOf(signal);
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
    const ex = exchange(method, new URL(url), sent, streamed ? body.open() : body, touch, { publicOnly: this.opts.publicOnly === true });
    abort = () => ex.abort(abortError('no answer in time'));
    const giveUp = (): void => {
      if (signal !== undefined) ex.abort(reasonOf(signal));
    };
    signal?.addEventListener('abort', giveUp, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', giveUp);
      ex.release();
    };
    try {
      return { response: await ex.response, url, touch, done };
    } catch (err) {
      done();
      throw err;
    }
  }

  /** Chooses the scheme on first contact: HTTPS, or plain HTTP for a loopback server that speaks it. */
  private async first(method: string, path: string, headers: Record<string, string>, body: RequestBody | undefined, signal: AbortSignal): Promise<Reply> {
    const secure = `https://${this.registry}${path}`;
    try {
      const reply = await this.once(method, secure, headers, body, signal);
      this.scheme = 'https';
      return reply;
    } catch (err) {
      if (!isLoopback(this.hostname) || !spokePlainHttp(err)) throw unreachable(err, secure);
      this.scheme = 'http';
      const plain = `http://${this.registry}${path}`;
      return this.once(method, plain, headers, body, signal).catch((e: unknown) => {
        throw unreachable(e, plain);
      });
    }
  }

  /** Whether a URL (a redirect target, a token realm) may be fetched (./registry-origin.ts). */
  private checkScheme(url: URL): void {
    checkScheme(url, { registry: this.registry, plainHttp: this.opts.plainHttp === true });
  }

  /**
   * Sends `method path` to the registry and follows what it asks (auth, redirects, retries).
   * Returns the final response with a status below 300 or in `init.accept`; throws otherwise.
   * Until the reply is done, it is given up by `init.signal` and the deadline (`stops`).
   */
  async request(method: string, path: string, init: RequestInit): Promise<Reply> {
    const linked = linkedSignal(this.stops(init));
    try {
      const reply = await this.send(method, path, init, linked.signal);
      return {
        ...reply,
        done: () => {
          reply.done();
          linked.release();
        },
      };
    } catch (err) {
      linked.release();
      throw err;
    }
  }

  /** What gives a request up: its caller's signal, and the deadline, or CLEANUP_MS for a cleanup. */
  private stops(init: RequestInit): Stop[] {
    const stops: Stop[] = [];
    const own = init.signal;
    if (own !== undefined) stops.push({ signal: own, reason: () => reasonOf(own) });
    const deadline = this.opts.deadline;
    if (init.cleanup === true) stops.push({ signal: AbortSignal.timeout(CLEANUP_MS), reason: () => abortError(`no answer within ${CLEANUP_MS / 1000} s`) });
    else if (deadline !== undefined) stops.push({ signal: deadline.signal(), reason: () => deadline.passed(this.registry, init.what) });
    return stops;
  }

  /** `request` under one signal: the redirects, auth rounds and retries of a request. */
  private async send(method: string, path: string, init: RequestInit, signal: AbortSignal): Promise<Reply> {
    const canRepeat = method === 'GET' || method === 'HEAD' || method === 'PUT' || (method === 'POST' && init.body === undefined) || method === 'DELETE';
    // One challenge answered per request: a token just earned that is refused again is refused,
    // not expired, and is reported rather than fetched in a loop.
    let authRounds = 0;
    let retries = 0;
    for (;;) {
      const { reply, authorization, own } = await this.follow(method, path, init, signal);
      const res = reply.response;
      // Only the registry's own 401 is answered: see the header comment.
      if (res.status === 401 && own && authRounds === 0) {
        authRounds++;
        const answered = await this.auth.answer(res, init.what, authorization, signal).catch(async (err: unknown) => {
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
        await sleep(wait, signal);
        continue;
      }
      if (res.status < 300 || init.accept?.includes(res.status) === true) return reply;
      const message = await registryMessage(res).finally(() => reply.done());
      throw statusError(res.status, message, {
        registry: this.registry,
        what: init.what,
        retries,
        hasCredentials: this.auth.hasCredentials(),
        ...(own ? {} : { elsewhere: new URL(reply.url).host }),
      });
    }
  }

  /** Follows redirects of GET/HEAD by hand: credentials only to the registry's origin. */
  private async follow(method: string, path: string, init: RequestInit, signal: AbortSignal): Promise<Followed> {
    const seen = new Set<string>();
    let url: string | undefined;
    for (let hops = 0; ; hops++) {
      const own = url === undefined || new URL(url).origin === this.origin();
      const headers: Record<string, string> = { 'accept-encoding': 'identity', ...init.headers };
      const authorization = own ? this.auth.header() : undefined;
      if (authorization !== undefined) headers.authorization = authorization;
      let reply: Reply;
      if (url === undefined) {
        const first = `${this.origin()}${path}`;
        reply = this.scheme === undefined ? await this.first(method, path, headers, init.body, signal) : await this.once(method, first, headers, init.body, signal).catch((e: unknown) => Promise.reject(unreachable(e, first)));
      } else {
        const target = url;
        reply = await this.once(method, target, headers, init.body, signal).catch((e: unknown) => Promise.reject(unreachable(e, target)));
      }
      const res = reply.response;
      const location = res.headers.get('location');
      const redirected = [301, 302, 303, 307, 308].includes(res.status) && location !== null;
      if (redirected && init.body !== undefined && !(init.body instanceof Uint8Array)) {
        await res.body.cancel();
        reply.done();
        throw new SkillctlError('OCI_REDIRECT_REFUSED', `${new URL(reply.url).host}: an upload was redirected`);
      }
      if (!redirected || (method !== 'GET' && method !== 'HEAD')) return { reply, authorization, own };
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
