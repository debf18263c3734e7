// `verify-pins --mcp-token-file ORIGIN=FILE` (src/cli/commands/verify-pins/mcp-tokens.ts): each
// token is bound to one origin, and goes to a lock's server only when its URL has that origin.
import assert from 'node:assert/strict';
import { InvalidArgumentError } from 'commander';
import { describe, it } from 'node:test';
import { parseTokenFor, tokenFor } from '../../src/cli/commands/verify-pins/mcp-tokens.js';

describe('--mcp-token-file ORIGIN=FILE', () => {
  it('takes an origin (the default port and case normalised) and a file that may hold =', () => {
    assert.deepEqual(parseTokenFor('https://MCP.example.com:443=a=b'), [{ origin: 'https://mcp.example.com', file: 'a=b' }]);
    assert.deepEqual(parseTokenFor('http://127.0.0.1:8765/=t', [{ origin: 'https://x.example', file: 'u' }]), [
      { origin: 'https://x.example', file: 'u' },
      { origin: 'http://127.0.0.1:8765', file: 't' },
    ]);
  });

  it('refuses what is not an origin, a missing file, and an origin twice', () => {
    for (const bad of ['token', '=token', 'https://x.example', 'https://x.example=', 'https://x.example/mcp=t', 'https://x.example?a=t', 'https://u:p@x.example=t', 'ftp://x.example=t']) {
      assert.throws(() => parseTokenFor(bad), InvalidArgumentError, bad);
    }
    assert.throws(() => parseTokenFor('https://x.example:443=t', [{ origin: 'https://x.example', file: 'u' }]), /given twice/);
  });

  it('gives a server its token only when its URL has the origin; a program, another port or scheme gets none', () => {
    const tokens = new Map([['https://mcp.example.com', 'secret-0123456789abcdef']]);
    assert.deepEqual(tokenFor({ url: 'https://mcp.example.com/mcp' }, tokens), { bearerToken: 'secret-0123456789abcdef' });
    assert.deepEqual(tokenFor({ url: 'https://mcp.example.com:443/other' }, tokens), { bearerToken: 'secret-0123456789abcdef' });
    for (const url of ['https://mcp.example.com:8443/mcp', 'http://mcp.example.com/mcp', 'https://mcp.example.com.evil.example/mcp', 'not a url']) assert.deepEqual(tokenFor({ url }, tokens), {}, url);
    assert.deepEqual(tokenFor({ command: ['server'] }, tokens), {});
  });
});
