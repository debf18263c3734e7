/**
 * http.fetch_text: GETs a URL the policy allows and returns its text. Each redirect hop is
 * checked with the policy again; each connection's address is checked when it is made
 * (lib/http-get.ts); the body is read up to `max_bytes` and decoded from its charset to UTF-8.
 * docs/skills/http.fetch_text.md.
 */
import type { BuiltinContext, BuiltinOutcome, BuiltinSkill } from '../core/run/index.js';
import { VERSION } from '../generated/version.js';
import { AddressBlocked, httpGet, urlWithHost, type GetResponse } from './lib/http-get.js';
import { bound, denied, fail, ok, RequestError, runSkill, selfDenied, str } from './lib/outcome.js';
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
    if (url.username !== '' || url.password !== '') return selfDenied('SKILL_NOT_ALLOWED', 'credentials in a URL are refused', `fetch ${url.origin}`);
    const decision = await ctx.policy.checkUrl(url.href);
    if (!decision.allowed) return denied(decision, `fetch ${url.href}`);
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
      if (err instanceof AddressBlocked) return selfDenied('SKILL_ADDRESS_BLOCKED', err.message, `connect ${err.host}`);
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
    const dec = decodePrefix(body, encoding, more);
    const text = dec.ok ? dec.text : new TextDecoder(dec.encoding).decode(body);
    if (looksBinary(text)) return fail('SKILL_BINARY_CONTENT', `${url.href} returned binary content`, { status: res.status, mime });
    return ok({
      url: raw,
      final_url: url.href,
      status: res.status,
      mime,
      text,
      bytes: dec.ok ? dec.bytes : body.length,
      truncated: more || (dec.ok && dec.bytes < body.length),
    });
  }
}

export const httpFetchText: BuiltinSkill = {
  id: 'http.fetch_text',
  run: (input, ctx) =>
    runSkill(input, async (req) => fetchText(ctx, str(req, 'url'), bound(req, 'max_bytes', DEFAULT_MAX_BYTES, ctx.limits.maxOutputBytes))),
};
