/**
 * Answering a registry's 401: the `WWW-Authenticate` challenge is met once per request, Basic with
 * the configured credentials, or Bearer with a token fetched from the challenge's realm (with the
 * credentials, when there are any). The Authorization header earned is kept for the requests
 * after it; the Transport decides where it may be sent (the registry's own origin only) and
 * which 401s are answered (the registry's own only: the realm a challenge names is where the
 * credentials go).
 */
import type { Code } from '../diagnostics.js';
import { SkillctlError } from '../errors.js';
import { parseChallenge } from './challenge.js';
import type { CredentialStore } from './credentials.js';
import type { HttpResponse } from '../net/index.js';
import { boundedText, ERROR_BODY_MAX, registryMessage } from './response-body.js';

/** What the authenticator needs of the transport: a plain GET (no auth, no redirects) and its scheme rule. */
export interface TokenFetcher {
  /**
   * GETs `url` once; network failures are already SkillctlErrors. `done` stops the idle timer.
   * An abort of `signal` (the request's whose 401 is answered) gives the GET and its body up.
   */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<{ readonly response: HttpResponse; done(): void }>;
  /** Throws unless `url` may be fetched (HTTPS, or HTTP where allowed). */
  checkScheme(url: URL): void;
}

export class RegistryAuth {
  /** The Authorization header last earned, and the scope it was earned for. */
  private earned: { header: string; key: string } | undefined;

  constructor(
    private readonly registry: string,
    private readonly credentials: CredentialStore,
    private readonly http: TokenFetcher,
  ) {}

  /** The header to send to the registry's origin, once one was earned. */
  header(): string | undefined {
    return this.earned?.header;
  }

  /** Whether credentials are configured for the registry (a 401 then means they were refused). */
  hasCredentials(): boolean {
    return this.credentials(this.registry) !== undefined;
  }

  /**
   * Earns an Authorization header from a 401's challenge. `sent` is the header the refused
   * request carried, `signal` that request's (a token fetch is given up with it). Returns the
   * header to send again, or undefined when there is nothing to answer with (the caller then
   * reports the 401).
   */
  async answer(res: HttpResponse, what: string, sent: string | undefined, signal: AbortSignal | undefined): Promise<string | undefined> {
    const challenge = parseChallenge(res.headers.get('www-authenticate'));
    const creds = this.credentials(this.registry);
    const basic = creds !== undefined ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
    if (challenge?.scheme === 'basic') {
      // The credentials were sent and refused: sending them again cannot help.
      if (basic === undefined || sent === basic) return undefined;
      this.earned = { header: basic, key: 'basic' };
      return basic;
    }
    if (challenge?.scheme !== 'bearer') return undefined;
    const realm = challenge.params.get('realm');
    if (realm === undefined) return undefined;
    const key = `${challenge.params.get('service') ?? ''} ${challenge.params.get('scope') ?? ''}`;
    // A request sent before another one earned a token for this scope: that token, unfetched.
    if (this.earned?.key === key && this.earned.header !== sent) return this.earned.header;
    // Otherwise a token is fetched: there is none yet, or the one sent has expired (registries
    // issue tokens of minutes, and a long upload outlives them) or was refused. The Transport
    // answers one challenge per request, so a refused token is fetched again once at most.
    let tokenUrl: URL;
    try {
      tokenUrl = new URL(realm);
    } catch {
      throw new SkillctlError('OCI_AUTH_DENIED', `${this.registry}: ${what}: the token realm ${realm} is not a URL`);
    }
    this.http.checkScheme(tokenUrl);
    const service = challenge.params.get('service');
    if (service !== undefined) tokenUrl.searchParams.set('service', service);
    for (const scope of (challenge.params.get('scope') ?? '').split(' ').filter((s) => s !== '')) tokenUrl.searchParams.append('scope', scope);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (basic !== undefined) headers.authorization = basic;
    const reply = await this.http.get(tokenUrl, headers, signal);
    try {
      if (reply.response.status !== 200) {
        const message = await registryMessage(reply.response);
        const code: Code = basic === undefined && reply.response.status === 401 ? 'OCI_AUTH_REQUIRED' : 'OCI_AUTH_DENIED';
        throw new SkillctlError(code, `${this.registry}: ${what}: the token service at ${tokenUrl.host} gave no token (${message})`);
      }
      const text = await boundedText(reply.response, ERROR_BODY_MAX);
      let token: unknown;
      try {
        const doc = JSON.parse(text) as { token?: unknown; access_token?: unknown };
        token = doc.token ?? doc.access_token;
      } catch {
        token = undefined;
      }
      if (typeof token !== 'string' || token === '') {
        throw new SkillctlError('OCI_AUTH_DENIED', `${this.registry}: ${what}: the token service at ${tokenUrl.host} answered without a token`);
      }
      // What Node refuses in a header value (and a line break that would start another header):
      // checked here, so the answer is the token service's fault, not a registry out of reach.
      if (/[^\t\x20-\x7e\x80-\xff]/.test(token)) {
        throw new SkillctlError('OCI_AUTH_DENIED', `${this.registry}: ${what}: the token service at ${tokenUrl.host} answered a token an HTTP header cannot carry (a control character, or one past U+00FF)`);
      }
      this.earned = { header: `Bearer ${token}`, key };
      return this.earned.header;
    } finally {
      reply.done();
    }
  }
}
