// Threat: another program (another account's, on a shared host) listens first on the address
// `skillctl mcp --http` is told to serve, so that the agent host configured with that address
// sends the server's bearer token, and its requests, to that program. skillctl cannot keep the
// port, but it must say so: it ended with "internal error: listen EADDRINUSE … (this is a bug)",
// exit 1 (until the stop of 2026-12-01), which reads as a crash of skillctl, not as a port another
// program holds. Now: USAGE, exit 2, naming the address and what a client of it would meet.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillctlAsync } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

describe('threat: another program listens on the address `skillctl mcp --http` is to serve', () => {
  it('the port taken on 127.0.0.1: USAGE naming the address, exit 2, no internal error, no token shown', async () => {
    const squatter: Server = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    try {
      const r = await skillctlAsync(['mcp', '--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--http', `127.0.0.1:${port}`], {
        cwd: tempDir('skillctl-mcp-port-taken-'),
        env: { SKILLCTL_MCP_TOKEN: 'port-taken-token-0123456789' },
      });
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /internal error|this is a bug|\n\s+at /);
      assert.match(r.stderr, new RegExp(`USAGE.*--http 127\\.0\\.0\\.1:${port}: the address is in use`));
      assert.ok(!r.stderr.includes('port-taken-token-0123456789'), 'the token is shown');
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });
});
