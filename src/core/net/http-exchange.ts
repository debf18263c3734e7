/**
 * One HTTP request and its response over `node:http` / `node:https`, for the OCI registry
 * Transport (../oci/transport.ts), which decides everything about it (scheme, credentials, redirects, retries),
 * and for the fetch the MCP client is given when its server must be public
 * (../mcp-skills/public-fetch.ts): fetch itself takes no `lookup` to guard.
 *
 * Not fetch: fetch wraps every piece of a body in web streams (a ReadableStream per response,
 * promise-per-read, a copy into a fresh Uint8Array), which for a 100 MB layer cost more CPU than
 * hashing it (docs/performance.md), and a stream body it may redirect is teed, the unread branch
 * keeping every byte. Here a response body is the socket's own Buffers, queued until read and
 * the socket paused while more than QUEUE_MAX bytes wait (backpressure without read-ahead), and a
 * request body is written piece by piece, waiting for `drain`.
 *
 * TLS: Node's default CA store, with NODE_EXTRA_CA_CERTS added at start-up, and the host name
 * checked (https.request's defaults). Connections are kept alive and reused; an idle one never
 * keeps the process running (the agent unreferences free sockets).
 *
 * `publicOnly` (a registry or an MCP server named by untrusted input: a lock's origin) reaches
 * only public addresses: an IP-literal host that is not public is refused before connecting, and a
 * name is resolved by a lookup that fails when any of its answers is not, as the connection is
 * made (a check made earlier would not bind the address the socket then gets: DNS rebinding).
 * Such requests have keep-alive agents of their own, so a socket opened without the guard is
 * never reused for one.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
// Not through policy/index.js, which holds the policy file loader (YAML): the OCI and MCP commands need none of it.
import { notPublicError, publicOnlyLookup, specialLiteral } from '../policy/public-host.js';

/** How much of a response body may wait unread before the socket is paused. */
const QUEUE_MAX = 1024 * 1024;

type Send = (url: URL, options: RequestOptions, answer: (m: IncomingMessage) => void) => ClientRequest;

interface Senders {
  readonly http: Send;
  readonly https: Send;
}

/**
 * node:http and node:https with their keep-alive agents, loaded on the first request: loading
 * TLS at start-up cost a pull answered from the cache 30 ms (docs/performance.md). `publicOnly`
 * requests use agents of their own, each request carrying the guarded lookup.
 */
let loaded: Promise<{ readonly any: Senders; readonly publicOnly: Senders }> | undefined;
function senders(): Promise<{ readonly any: Senders; readonly publicOnly: Senders }> {
  loaded ??= Promise.all([import('node:http'), import('node:https')]).then(([http, https]) => {
    const pair = (extra: RequestOptions): Senders => {
      const plain = new http.Agent({ keepAlive: true });
      const secure = new https.Agent({ keepAlive: true });
      return {
        http: (url, options, answer) => http.request(url, { ...options, ...extra, agent: plain }, answer),
        https: (url, options, answer) => https.request(url, { ...options, ...extra, agent: secure }, answer),
      };
    };
    return { any: pair({}), publicOnly: pair({ lookup: publicOnlyLookup() }) };
  });
  return loaded;
}

export interface ExchangeOptions {
  /** Connect only to public addresses (see the header comment). Default false. */
  readonly publicOnly?: boolean;
}

/** A response's headers, read as fetch's Headers are (names in any case; repeated ones joined). */
export interface HttpHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
  /** Every header, names in lower case, repeated ones joined (as `get` reads them). */
  entries(): [string, string][];
}

/** A response body, read a piece at a time; `cancel` drops the rest (and the connection, if unread). */
export interface HttpBody {
  /** The next piece, or undefined at the end; rejects when the connection ended early. */
  read(): Promise<Buffer | undefined>;
  cancel(): Promise<void>;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: HttpHeaders;
  readonly body: HttpBody;
}

/** A request body: bytes held, or pieces streamed (each piece sent counts as progress). */
export type HttpRequestBody = Uint8Array | AsyncIterable<Uint8Array>;

export interface Exchange {
  /** Settles with the response's status and headers; its body is read through `response.body`. */
  readonly response: Promise<HttpResponse>;
  /** Stops the exchange: the request, its body and the response are dropped (`why` is the rejection). */
  abort(why: Error): void;
  /**
   * Ends the exchange once its response was dealt with. A request whose body was still being
   * sent (the server answered early: a 401, a 413) is closed, so no more of the body goes.
   */
  release(): void;
}

/** The error an idle timer aborts with: `name` AbortError, as fetch's. */
export function abortError(message: string): Error {
  const err = new Error(message);
  err.name = 'AbortError';
  return err;
}

function headersOf(msg: IncomingMessage): HttpHeaders {
  const get = (name: string): string | null => {
    const v = msg.headers[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return { get, has: (name) => get(name) !== null, entries: () => Object.keys(msg.headers).map((name) => [name, get(name) ?? '']) };
}

/** The body of `msg` as a queue of the socket's Buffers, paused while over QUEUE_MAX. */
function bodyOf(msg: IncomingMessage, progress: () => void): HttpBody {
  const queue: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failure: Error | undefined;
  let waiting: { resolve: () => void } | undefined;
  const wake = (): void => {
    const w = waiting;
    waiting = undefined;
    w?.resolve();
  };
  let dropped = false;
  msg.on('data', (piece: Buffer) => {
    if (dropped) return;
    progress();
    queue.push(piece);
    queued += piece.length;
    if (queued > QUEUE_MAX) msg.pause();
    wake();
  });
  msg.on('end', () => {
    ended = true;
    wake();
  });
  // A connection that closes before the body's end (a length the server did not keep, a reset).
  msg.on('error', (err) => {
    failure ??= err;
    wake();
  });
  msg.on('close', () => {
    if (!ended) failure ??= new Error('the connection closed before the end of the body');
    wake();
  });
  return {
    async read() {
      for (;;) {
        const piece = queue.shift();
        if (piece !== undefined) {
          queued -= piece.length;
          if (queued <= QUEUE_MAX && msg.isPaused()) msg.resume();
          return piece;
        }
        if (failure !== undefined) throw failure;
        if (ended) return undefined;
        await new Promise<void>((resolve) => (waiting = { resolve }));
      }
    },
    cancel() {
      queue.length = 0;
      queued = 0;
      dropped = true;
      // All of it arrived (it may still wait in the paused stream: a body over QUEUE_MAX that
      // came whole while nobody read it): let it flow into the discarding listener to its end,
      // so the connection goes back to the pool. Left paused, 'end' never came and the socket
      // stayed bound, keeping the process alive. Not all of it arrived: the connection is closed.
      if (msg.complete) msg.resume();
      else msg.destroy();
      ended = true;
      wake();
      return Promise.resolve();
    },
  };
}

/**
 * Writes a streamed body piece by piece, each handed to the socket (its write callback) before
 * the next is asked for: the source may reuse its buffer, and no piece waits in memory beyond
 * the one being sent. Stops when the request is gone.
 */
async function sendPieces(req: ClientRequest, pieces: AsyncIterable<Uint8Array>, progress: () => void): Promise<void> {
  const it = pieces[Symbol.asyncIterator]();
  try {
    for (let next = await it.next(); next.done !== true; next = await it.next()) {
      if (req.destroyed) return;
      progress();
      await new Promise<void>((resolve) => {
        const go = (): void => {
          req.off('close', go);
          resolve();
        };
        // A request destroyed meanwhile may never call back: its close ends the wait too.
        req.on('close', go);
        req.write(next.value, go);
      });
    }
    if (!req.destroyed) req.end();
  } finally {
    await it.return?.();
  }
}

/**
 * Sends `method url` with `headers` and `body`. `progress` is called for every piece sent and
 * received (the caller's idle timer). Network and TLS failures reject `response` with Node's
 * error (its `code`: ECONNREFUSED, ERR_SSL_WRONG_VERSION_NUMBER, …).
 */
export function exchange(method: string, url: URL, headers: Record<string, string>, body: HttpRequestBody | undefined, progress: () => void, opts: ExchangeOptions = {}): Exchange {
  let req: ClientRequest | undefined;
  let msg: IncomingMessage | undefined;
  let reject: ((err: Error) => void) | undefined;
  let aborted: Error | undefined;
  const response = senders().then((kinds) => new Promise<HttpResponse>((resolve, fail) => {
    reject = fail;
    if (aborted !== undefined) return fail(aborted);
    const guarded = opts.publicOnly === true;
    // Node connects to an IP literal without a lookup: the guarded lookup never sees it.
    const literal = guarded ? specialLiteral(url.hostname) : undefined;
    if (literal !== undefined) return fail(notPublicError(url.hostname, literal));
    const send = guarded ? kinds.publicOnly : kinds.any;
    const all = { ...headers };
    if (body instanceof Uint8Array) all['content-length'] = String(body.length);
    req = (url.protocol === 'https:' ? send.https : send.http)(url, { method, headers: all }, (m) => {
      msg = m;
      resolve({ status: m.statusCode ?? 0, headers: headersOf(m), body: bodyOf(m, progress) });
    });
    req.on('error', fail);
    if (body === undefined) req.end();
    else if (body instanceof Uint8Array) req.end(body);
    // A failure to read the body's source is the request's failure.
    else sendPieces(req, body, progress).catch((err: unknown) => req?.destroy(err instanceof Error ? err : new Error(String(err))));
  }));
  return {
    response,
    abort(why) {
      aborted = why;
      reject?.(why);
      msg?.destroy(why);
      req?.destroy(why);
    },
    release() {
      if (req !== undefined && !req.writableFinished) req.destroy();
    },
  };
}
