/**
 * What a bearer token must be, on both ends of skillctl's Streamable HTTP: the token `mcp --http`
 * requires (src/mcp/wire/bearer.ts) and the one `pull` and `verify-pins --remote` send
 * (mcp-skills/connection.ts). One rule in one place, so a token one side takes the other takes too.
 */

/** RFC 6750's token68 characters; at least 16 of them. */
const TOKEN = /^[A-Za-z0-9._~+/-]{16,}=*$/;

/** Why `token` cannot be one (too short, a character a header cannot carry), or undefined. */
export function tokenProblem(token: string): string | undefined {
  return TOKEN.test(token) ? undefined : 'a token is at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)';
}
