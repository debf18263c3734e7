// The check of a bearer token given to skillctl (src/cli/token-file.ts), shared by mcp
// --http-token-file, $SKILLCTL_MCP_TOKEN and pull/verify-pins --mcp-token-file: a token that is not
// one is a usage error naming where it came from, never quoting it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SkillctlError } from '../../src/core/errors.js';
import { usableToken } from '../../src/cli/token-file.js';

describe('usableToken', () => {
  it('returns a token of 16 or more token68 characters as it is', () => {
    assert.equal(usableToken('abcdefghijklmnop-0123', '--mcp-token-file t'), 'abcdefghijklmnop-0123');
  });

  it('a short token, or one with a character a header cannot carry: USAGE naming the source, not the token', () => {
    for (const bad of ['', 'short-secret', 'has a space 0123456789', 'line\nbreak-0123456789']) {
      assert.throws(
        () => usableToken(bad, '--mcp-token-file t'),
        (err: unknown) => err instanceof SkillctlError && err.code === 'USAGE' && /^--mcp-token-file t is not a usable token/.test(err.message) && (bad === '' || !err.message.includes(bad)),
        JSON.stringify(bad),
      );
    }
  });
});
