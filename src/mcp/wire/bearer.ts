/**
 * The `--http` server's one credential: a bearer token every request must carry. Loopback is not
 * private: every process and every user on the machine can connect to it (a shared host, a CI
 * runner's other jobs, a container on the host network), and a session runs skills under this
 * user's policy. The token is compared through digests of equal length, in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The rule is the core's: `pull --mcp-token-file` checks the token it sends with the same one.
export { tokenProblem } from '../../core/bearer-token.js';

/** A fresh token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Does the `Authorization` header carry `token` (`Bearer <token>`, the scheme in any case)? */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^bearer +(\S+) *$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1] as string), digest(token));
}
