// Threat: another account on the machine reads the token of `skillctl mcp --http --http-token-file
// FILE` and opens sessions of its own (running the user's skills under the user's policy). The
// token is what keeps the machine's other users out of a loopback server (docs/security.md, MCP),
// yet a file written the usual way (`echo … > mcp.token`, umask 022) is 0644: every account that
// can reach its folder reads it. The server took it as it was (until the stop of 2026-12-01), while
// `sign` refuses a secret key so exposed, as ssh does. Now such a file stops the server at start
// (USAGE, exit 2, `chmod 600` the hint), nothing listening.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { unprivileged } from '../helpers/as-nobody.js';
import { BIN, ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'mcp-token-file-mode-7c1d9e2b4a6f';
const ARGS = ['mcp', '--registry', join(ROOT, 'manifests', 'registry'), '--no-audit', '--http', '127.0.0.1:0', '--http-token-file', 'mcp.token'];

/** The server started in `dir`: its exit status and stderr, or its URL once it listens (then it is stopped). */
function start(dir: string): Promise<{ readonly exit?: number | null; readonly url?: string; readonly stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...ARGS], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SKILLCTL_MCP_TOKEN: undefined } });
  let err = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const m = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(err);
      if (m !== null) {
        clearTimeout(timer);
        child.kill('SIGTERM');
        resolve({ url: m[1] as string, stderr: err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ exit: code, stderr: err });
    });
  });
}

/** What another user (nobody) gets: the file's text, or undefined when it cannot read it. */
function readAsOther(prefix: readonly string[], file: string): string | undefined {
  const r = spawnSync(prefix[0] as string, [...prefix.slice(1), 'cat', file], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

describe('threat: another account reads the --http-token-file of `skillctl mcp --http`', () => {
  const other = unprivileged();
  const prefix = 'prefix' in other && other.prefix.length > 0 ? other.prefix : undefined;

  for (const mode of [0o644, 0o640, 0o604, 0o660, 0o602]) {
    it(`a token file of mode ${mode.toString(8)}: the server does not start (USAGE, exit 2), chmod 600 the hint`, async () => {
      const dir = tempDir('skillctl-mcp-token-mode-');
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, 'mcp.token'), `${TOKEN}\n`);
      chmodSync(join(dir, 'mcp.token'), mode);
      // What the mode means: another user reads the token (where the tests can be one).
      if (prefix !== undefined && (mode & 0o004) !== 0) assert.equal(readAsOther(prefix, join(dir, 'mcp.token')), TOKEN);
      const r = await start(dir);
      assert.equal(r.url, undefined, `the server listens at ${r.url ?? ''} on a token other users may read or write`);
      assert.equal(r.exit, 2, r.stderr);
      assert.match(r.stderr, /--http-token-file mcp\.token is readable or writable by other users \(mode \d+\)/);
      assert.match(r.stderr, /chmod 600 mcp\.token/);
      assert.ok(!r.stderr.includes(TOKEN), 'the token is shown');
    });
  }

  it('a token file of mode 600: the server starts, and another user cannot read the token', async () => {
    const dir = tempDir('skillctl-mcp-token-mode-');
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'mcp.token'), `${TOKEN}\n`, { mode: 0o600 });
    chmodSync(join(dir, 'mcp.token'), 0o600);
    if (prefix !== undefined) assert.equal(readAsOther(prefix, join(dir, 'mcp.token')), undefined);
    const r = await start(dir);
    assert.match(r.url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/, r.stderr);
  });
});
