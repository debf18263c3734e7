/**
 * Token auth for the hostile registry (./hostile-registry.ts): a token endpoint at `/token` on the
 * registry itself that gives anyone a token, and a 401 with a Bearer challenge for every request
 * without a live one. Tokens can be short-lived, the endpoint slow and the 401's body large: the
 * conditions under which a client must fetch a token again, or reads a challenge body while it
 * waits for one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BearerOptions {
  /** How long a token is accepted (default 5 minutes). */
  readonly lifetimeMs?: number;
  /** The token endpoint answers after this long (default at once). */
  readonly tokenDelayMs?: number;
  /** The token endpoint never answers (only the client, or closing the registry, ends the request). */
  readonly tokenHangs?: boolean;
  /** The 401's body is this many bytes of spaces, its length announced (default none). */
  readonly challengeBodyBytes?: number;
  /** The realm the challenge names (default the registry's own `/token`). */
  readonly realm?: string;
}

export interface BearerGate {
  /** Tokens the endpoint gave, in order. */
  readonly issued: string[];
  /** Answers `req` when it is a token request or lacks a live token; false when it may go on. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export function bearerGate(opts: BearerOptions, ownRealm: string): BearerGate {
  const expiry = new Map<string, number>();
  const issued: string[] = [];
  return {
    issued,
    handle(req, res) {
      if ((req.url ?? '').startsWith('/token')) {
        if (opts.tokenHangs === true) return true;
        setTimeout(() => {
          const token = `token-${issued.length + 1}`;
          issued.push(token);
          expiry.set(token, Date.now() + (opts.lifetimeMs ?? 300_000));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ token, expires_in: Math.ceil((opts.lifetimeMs ?? 300_000) / 1000) }));
        }, opts.tokenDelayMs ?? 0);
        return true;
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if ((expiry.get(token) ?? 0) > Date.now()) return false;
      const size = opts.challengeBodyBytes ?? 0;
      // The body (of an upload) is read first, as a registry does before it answers.
      req.resume();
      req.on('end', () => {
        res.writeHead(401, {
          'www-authenticate': `Bearer realm="${opts.realm ?? ownRealm}",service="hostile",scope="repository:skills/pdf-notes:pull,push"`,
          'content-length': String(size),
        });
        res.end(Buffer.alloc(size, 0x20));
      });
      return true;
    },
  };
}
