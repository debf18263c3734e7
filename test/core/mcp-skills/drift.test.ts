// remoteDrift (verify-pins --remote for a pin pulled from an MCP server) under a deadline over the
// caller's whole run: a server that stalls is given up at the deadline with MCP_PULL_SERVER_TIMEOUT
// naming it, however long each request may take; a deadline already passed starts no server; and
// a server that answers in time is compared as usual.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { remoteDrift, serverLabel, type McpOrigin, type SessionDeadline } from '../../../src/core/mcp-skills/index.js';
import { SERVED, SERVER } from '../../helpers/pull-mcp.js';

/** A deadline of `seconds` counted from its first use, as the OCI Deadline counts it. */
function deadline(seconds: number): SessionDeadline {
  let started: AbortSignal | undefined;
  return {
    seconds,
    signal: () => (started ??= AbortSignal.timeout(seconds * 1000)),
  };
}

describe('remoteDrift under a deadline', () => {
  const uri = 'skill://pdf-processing/SKILL.md';
  const origin = (lie?: 'hang'): McpOrigin => ({ server: { command: [process.execPath, SERVER, '--dir', SERVED, ...(lie !== undefined ? ['--lie', lie] : [])] }, uri, files: [] });

  it('a server that never answers skills/get is given up at the deadline, not at the per-request limit', async () => {
    const o = origin('hang');
    const t0 = Date.now();
    const found = await remoteDrift(o, { cwd: process.cwd(), timeoutMs: 60_000, file: 'vendor/pdf-processing', deadline: deadline(3) });
    const ms = Date.now() - t0;
    assert.deepEqual(found.map((d) => d.code), ['MCP_PULL_SERVER_TIMEOUT']);
    // skills/get, which the server never answers; initialize only on a machine so loaded that the
    // server was not up within the 3 s (the deadline counts the start too).
    const label = serverLabel(o.server);
    assert.ok([`${label}: skills/get: not finished within the 3 s timeout`, `${label}: initialize: not finished within the 3 s timeout`].includes(found[0]?.message ?? ''), found[0]?.message);
    assert.ok(ms < 20_000, `${ms} ms: the 60 s per-request limit, not the deadline, ended it`);
  });

  it('a server that ignores its closed stdin and SIGTERM is killed at the deadline, not given the SDK shutdown of 4 s more', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'skillctl-deaf-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const mark = join(dir, 'signals');
    const pidFile = join(dir, 'pid');
    // The server's pid, recorded by a shell that then becomes the server.
    const o: McpOrigin = { server: { command: ['/bin/sh', '-c', `echo $$ > ${pidFile}; exec "$0" "$@"`, process.execPath, SERVER, '--dir', SERVED, '--lie', 'hang', '--deaf', mark] }, uri, files: [] };
    const found = await remoteDrift(o, { cwd: process.cwd(), timeoutMs: 60_000, file: 'vendor/pdf-processing', deadline: deadline(3) });
    assert.deepEqual(found.map((d) => d.code), ['MCP_PULL_SERVER_TIMEOUT']);
    assert.equal(existsSync(mark), false, 'the server was sent SIGTERM: it was given the graceful shutdown');
    const pid = Number(await readFile(pidFile, 'utf8'));
    // Killed, it is gone as soon as it has been reaped: a few milliseconds, not the SDK's 4 s.
    const gone = (): boolean => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 100 && !gone(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(gone(), 'the server outlived the session');
  });

  it('a deadline that has passed starts no server: initialize is reported as not finished', async () => {
    const d = deadline(0.01);
    d.signal();
    await new Promise((r) => setTimeout(r, 50));
    const o = origin();
    const found = await remoteDrift(o, { cwd: process.cwd(), timeoutMs: 60_000, file: 'vendor/pdf-processing', deadline: d });
    assert.deepEqual(
      found.map((d) => [d.code, d.message]),
      [['MCP_PULL_SERVER_TIMEOUT', `${serverLabel(o.server)}: initialize: not finished within the 0.01 s timeout`]],
    );
  });
});
