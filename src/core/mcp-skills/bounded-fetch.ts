/**
 * The fetch a Streamable HTTP session of connection.ts goes through: the server is untrusted, so
 * its answers are bounded, and the user's token goes only where the user sent it.
 */
import type { FetchLike } from './public-fetch.js';

/**
 * fetch whose response bodies stop (with an error) after `max` bytes, and whose requests to
 * `auth.origin` carry `auth.token`. The header is set here, per request, rather than in the
 * transport's `requestInit`: a request that goes anywhere but the origin the user named (a
 * redirect followed by the SDK or by fetch) never carries the token, whatever the SDK's policy.
 */
export function boundedFetch(base: FetchLike, max: number, onTooLarge: () => void, auth?: { readonly origin: string; readonly token: string }): FetchLike {
  return async (url, init) => {
    let sent = init;
    if (auth !== undefined && new URL(url).origin === auth.origin) {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${auth.token}`);
      sent = { ...init, headers };
    }
    const res = await base(url, sent);
    if (res.body === null) return res;
    let seen = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          seen += chunk.byteLength;
          if (seen > max) {
            onTooLarge();
            ctl.error(new Error(`a response of more than ${max} bytes`));
            return;
          }
          ctl.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
