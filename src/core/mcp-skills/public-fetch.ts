/**
 * The fetch the MCP SDK's Streamable HTTP transport is given when its server must be at a public
 * address (ConnectOptions.publicOnly: a lock's origin, asked by `verify-pins --remote` without
 * --private-origins). A check of the host before the session does not bind where the client then
 * connects: the name is resolved again for each connection, and a resolver that answered with a
 * public address first can answer 127.0.0.1 or 169.254.169.254 next (DNS rebinding). Node's
 * fetch takes no `lookup` (only a dispatcher of the undici package, which skillctl does not ship,
 * could carry one), so each request goes through the HTTP exchange the OCI client uses too
 * (../net/http-exchange.ts), whose `publicOnly` refuses a special IP literal before connecting and
 * resolves a name with policy/public-host.ts's guarded lookup as the socket is opened: the
 * connection goes to an address that very answer found public, or fails with ENOTPUBLIC, nothing
 * sent.
 *
 * A redirect is never followed here: the 3xx is answered as it came, as fetch answers with
 * `redirect: 'manual'`. The SDK follows one only within the server's origin (connection.ts asks
 * for that policy), by calling this fetch again, so each hop's connection is checked as well.
 */
import { exchange } from '../net/index.js';

/** What the SDK's transport calls (its FetchLike). */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose response has no body, which `new Response` refuses one for (Fetch, "null body status"). */
const NULL_BODY = new Set([204, 205, 304]);

/** The request body as bytes: the SDK sends its JSON-RPC messages as strings. */
function bytesOf(body: RequestInit['body']): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('a request body that is not a string or bytes');
}

/** Why a request was given up: the signal's reason, as an Error (fetch rejects with the reason itself). */
function reasonOf(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : Object.assign(new Error(String(r)), { name: 'AbortError' });
}

/**
 * A fetch over node:http / node:https. `publicOnly` (the only use in skillctl: connection.ts
 * passes it for a server that must be public) connects only to public addresses; without it the
 * same requests go anywhere, which is what tests use to check this fetch against a real server on
 * loopback.
 */
export function nodeFetch(opts: { readonly publicOnly: boolean }): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${url.protocol} is not http: or https:`);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted === true) throw reasonOf(signal);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const ex = exchange(method, url, headers, bytesOf(init?.body), () => undefined, { publicOnly: opts.publicOnly });
    const giveUp = (): void => {
      if (signal !== undefined) ex.abort(reasonOf(signal));
    };
    signal?.addEventListener('abort', giveUp, { once: true });
    const done = (): void => {
      signal?.removeEventListener('abort', giveUp);
      ex.release();
    };
    let res: Awaited<typeof ex.response>;
    try {
      res = await ex.response;
    } catch (err) {
      done();
      throw err;
    }
    const body = res.body;
    let head: ResponseInit;
    try {
      // Headers refuses a value fetch would not take; the status is checked as fetch checks it.
      head = { status: res.status, headers: new Headers(res.headers.entries()) };
      if (res.status < 200 || res.status > 599) throw new TypeError(`${url.host} answered with status ${res.status}`);
    } catch (err) {
      await body.cancel();
      done();
      throw err;
    }
    if (NULL_BODY.has(res.status) || method === 'HEAD') {
      await body.cancel();
      done();
      return new Response(null, head);
    }
    const stream = new ReadableStream<Uint8Array>({
      async pull(ctl) {
        try {
          const piece = await body.read();
          if (piece !== undefined) return ctl.enqueue(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
          ctl.close();
          done();
        } catch (err) {
          done();
          ctl.error(err);
        }
      },
      async cancel() {
        await body.cancel();
        done();
      },
    });
    return new Response(stream, head);
  };
}
