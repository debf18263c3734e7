import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearerMatches, newToken, tokenProblem } from '../../../src/mcp/wire/bearer.js';

describe("the --http server's bearer token", () => {
  const token = 'abcdefghijklmnop-0123';

  it('matches `Bearer <token>`, the scheme in any case, and nothing else', () => {
    assert.equal(bearerMatches(`Bearer ${token}`, token), true);
    assert.equal(bearerMatches(`bearer ${token}`, token), true);
    for (const header of [undefined, '', 'Bearer', `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, `Bearer ${token} extra`, `${token}`, `Bearer  `]) {
      assert.equal(bearerMatches(header, token), false, String(header));
    }
  });

  it('a token is 16 or more token68 characters; a fresh one is 32 random bytes, base64url, never the same twice', () => {
    assert.equal(tokenProblem(token), undefined);
    assert.equal(tokenProblem('abc+/=='.padStart(20, 'a')), undefined);
    for (const bad of ['', 'short', 'has space in it here', 'ends-with-newline-0123\n', 'ü'.repeat(20)]) assert.match(tokenProblem(bad) ?? '', /at least 16 characters/, JSON.stringify(bad));
    const a = newToken();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(tokenProblem(a), undefined);
    assert.notEqual(a, newToken());
  });
});
