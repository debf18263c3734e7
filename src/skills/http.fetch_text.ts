/**
 * http.fetch_text: GETs a URL the policy allows and returns its text. Each redirect hop is
 * checked with the policy again; each connection goes to the address the policy checked, or has
 * its address checked when it is made (lib/http-get.ts); the body is read up to `max_bytes` and
 * decoded from its charset to UTF-8. docs/skills/http.fetch_text.md.
 */
import type { BuiltinContext, BuiltinOutcome, BuiltinSkill } from '../core/run/index.js';
import { VERSION } from '../generated/version.js';
import { AddressBlocked, httpGet, urlWithHost, type GetResponse } from './lib/http-get.js';
import { bound, denied, fail, fitOutput, ok, RequestError, runSkill, selfDenied, str } from './lib/outcome.js';
import { canonicalEncoding, decodePrefix, looksBinary } from './lib/text.js';

export const DEFAULT_MAX_BYTES = 131_072;
export const MAX_REDIRECTS = 5;
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** Media types taken as text besides text/*. */
function isTextual(mime: string): boolean {
  if (mime === '' || mime.startsWith('text/')) return true;
  if (/\+(?:json|xml|yaml)$/.test(mime)) return true;
  return [
    'application/json',
    'application/xml',
    'application/javascript',
    'application/ecmascript',
    'application/x-javascript',
    'application/yaml',
    'application/x-yaml',
    'application/toml',
    'application/x-ndjson',
    'application/sql',
    'application/graphql',
    'image/svg+xml',
  ].includes(mime);
}

function header(res: GetResponse, name: string): string {
  const v = res.headers[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/**
 * The URL a denial names: as the request gave it (parsing would show `/a/%2e%2e/b` as `/b`,
 * hiding why it was refused), unless it holds control characters or is too long to print.
 */
function shownUrl(raw: string, parsed: URL): string {
  return raw.length <= 2048 && !/[\u0000-\u001f\u007f-\u009f]/.test(raw) ? raw : parsed.href;
}

async function fetchText(ctx: BuiltinContext, raw: string, maxBytes: number): Promise<BuiltinOutcome> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RequestError('/url', '`url` is not a URL');
  }
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.limits.timeoutMs)]);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('SKILL_REDIRECT_LIMIT', `${url.href} is not an http or https URL`);
    // The policy gate refuses userinfo too; this holds even under a gate that does not.
    if (url.username !== '' || url.password !== '') return selfDenied('net.http', 'POLICY_URL_INVALID', 'net.http: userinfo (user@host) is not allowed', `fetch ${url.origin}`);
    // The first hop is checked as given: the policy's form checks (encoded traversal, dot
    // segments) run on the raw string, before URL parsing normalises them away.
    const decision = await ctx.policy.checkUrl(hop === 0 ? raw : url.href);
    if (!decision.allowed) return denied(decision, `fetch ${hop === 0 ? shownUrl(raw, url) : url.href}`);
    const current = url;
    // A special address is reached only when the policy allows a URL naming that address itself
    // (for a URL that already names it, the check above was that question).
    const allowSpecial = async (address: string): Promise<boolean> => {
      const named = urlWithHost(current, address);
      return named === current.href || (await ctx.policy.checkUrl(named)).allowed;
    };
    let res: GetResponse;
    try {
      // A gate that resolved the host says which address it checked (`address`): pin to it.
      const pinned = 'address' in decision && typeof decision.address === 'string' ? decision.address : undefined;
      res = await httpGet(url, {
        max: maxBytes,
        signal,
        allowSpecial,
        userAgent: `skillctl/${VERSION} (http.fetch_text)`,
        ...(pinned !== undefined ? { pinned } : {}),
      });
    } catch (err) {
      if (err instanceof AddressBlocked) {
        // The reason names no host: it goes into the audit record, and the URL comes from the input.
        return selfDenied('net.http', 'POLICY_ADDRESS_PRIVATE', 'net.http: the host resolves to a non-public address the policy does not name', `connect ${err.host} (${err.address})`);
      }
      if (signal.aborted) return fail('SKILL_TIMED_OUT', `fetching ${url.href} ran out of time`);
      return fail('SKILL_HTTP_FAILED', `fetching ${url.href} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    const location = header(res, 'location');
    if (REDIRECT.has(res.status) && location !== '') {
      if (hop >= MAX_REDIRECTS) return fail('SKILL_REDIRECT_LIMIT', `more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(location, url);
      } catch {
        return fail('SKILL_HTTP_FAILED', `redirect to an invalid location ${JSON.stringify(location)}`);
      }
      continue;
    }
    const contentType = header(res, 'content-type');
    const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    if (!isTextual(mime)) return fail('SKILL_BINARY_CONTENT', `${url.href} returned ${mime}, not text`, { status: res.status, mime });
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
    const encoding = (charset !== undefined ? canonicalEncoding(charset) : undefined) ?? 'utf-8';
    const more = res.body.length > maxBytes;
    const body = more ? res.body.subarray(0, maxBytes) : res.body;
    /** The response for the first `n` bytes of the body (cut inside a character: that character is left out). */
    const response = (n: number): Record<string, unknown> => {
      const part = body.subarray(0, n);
      const dec = decodePrefix(part, encoding, more || n < body.length);
      return {
        url: raw,
        final_url: url.href,
        status: res.status,
        mime,
        text: dec.ok ? dec.text : new TextDecoder(dec.encoding).decode(part),
        bytes: dec.ok ? dec.bytes : part.length,
        truncated: more || n < body.length || (dec.ok && dec.bytes < n),
      };
    };
    const whole = response(body.length);
    if (looksBinary(whole.text as string)) return fail('SKILL_BINARY_CONTENT', `${url.href} returned binary content`, { status: res.status, mime });
    // Fewer bytes of the body when the response would not fit the host's output cap.
    return ok(fitOutput(ctx.limits.maxOutputBytes, body.length, response) ?? whole);
  }
}

export const httpFetchText: BuiltinSkill = {
  id: 'http.fetch_text',
  run: (input, ctx) =>
    runSkill(input, async (req) => fetchText(ctx, str(req, 'url'), bound(req, 'max_bytes', DEFAULT_MAX_BYTES, ctx.limits.maxOutputBytes))),
};
