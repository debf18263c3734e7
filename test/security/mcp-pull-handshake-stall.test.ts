// Threat: a hostile MCP server holds `skillctl pull skill://… --mcp | --mcp-url` past its --timeout
// during the handshake, chatting all along (notifications/message and notifications/progress every
// 200 ms). Over Streamable HTTP it answers `initialize` and then never answers the POST of
// `notifications/initialized`, which the SDK sends with no time limit: the pull waited for the
// HTTP stack's own 300 s. Over stdio it never answers `initialize` and ignores its stdin closing
// and SIGTERM: the pull gave up at its --timeout, then waited 4 s more for the SDK's shutdown
// grace (stdin closed, 2 s, SIGTERM, 2 s, SIGKILL). The whole handshake is now under the
// --timeout: MCP_PULL_SERVER_TIMEOUT, exit 2, the program killed at once, nothing written, the
// sentinel unchanged.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratch, SECRET, treeState } from '../helpers/attack.js';
import { skillctlAsync } from '../helpers/cli.js';

/** --timeout of every pull here, in seconds. */
const TIMEOUT_S = 1;
/**
 * How long a pull may take in all: its --timeout, skillctl's start and stop, a loaded machine (a
 * guard against the 300 s of HTTP; the 4 s of stdio shutdown grace are told by the SIGTERM the
 * server records, which a server killed at once never gets).
 */
const WITHIN_MS = 12_000;

const notes = (): string[] => [
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'still here' } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 1, total: 2 } }),
];

/**
 * A stdio server that never answers initialize, chats every 200 ms, and outlives its stdin and
 * SIGTERM; it writes its pid to argv[2] and appends a line to argv[3] for each SIGTERM.
 */
const DEAF_CHATTY = `
const fs = require('node:fs');
fs.writeFileSync(process.argv[2], String(process.pid));
process.stdin.on('data', () => {});
process.stdin.on('end', () => {});
process.on('SIGTERM', () => fs.appendFileSync(process.argv[3], 'TERM\\n'));
const notes = ${JSON.stringify(notes())};
setInterval(() => { for (const n of notes) process.stdout.write(n + '\\n'); }, 200);
`;

type Mode = 'initialized-unanswered' | 'initialize-sse-chat';

/** A Streamable HTTP server: `initialize` answered (or chatted over SSE and never answered), `notifications/initialized` never answered. */
function hostileHttp(mode: Mode): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      const chat = (): void => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const t = setInterval(() => {
          for (const n of notes()) res.write(`event: message\ndata: ${n}\n\n`);
        }, 200);
        res.on('close', () => clearInterval(t));
      };
      if (m.method === 'initialize') {
        if (mode === 'initialize-sse-chat') return chat();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params?.protocolVersion, capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } }, serverInfo: { name: 'stall', version: '1' } } }));
        return;
      }
      // notifications/initialized (and anything else): never answered, the connection held open.
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

interface Pulled {
  readonly exit: number;
  readonly ms: number;
  readonly errors: string[];
  readonly said: string;
}

async function pull(cwd: string, server: readonly string[]): Promise<Pulled> {
  const t0 = Date.now();
  const r = await skillctlAsync(['pull', 'skill://x/SKILL.md', ...server, '--timeout', String(TIMEOUT_S), '--json'], { cwd, timeoutMs: 20_000 });
  const ms = Date.now() - t0;
  const said = `${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`;
  assert.notEqual(r.code, -1, `the pull did not finish within 20 s\n${said}`);
  const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; severity: string }[] };
  return { exit: r.code, ms, errors: doc.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), said };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('pull skill:// from a server that stalls the MCP handshake while chatting: given up at --timeout', () => {
  const sc = scratch('skillctl-handshake-stall-');
  const servers: Server[] = [];
  let sentinel: Map<string, string>;
  before(async () => {
    sentinel = await treeState(sc.outside);
  });
  after(() => {
    for (const s of servers) s.closeAllConnections();
    for (const s of servers) s.close();
  });

  const check = async (r: Pulled): Promise<void> => {
    assert.deepEqual([r.exit, r.errors], [2, ['MCP_PULL_SERVER_TIMEOUT']], r.said);
    assert.ok(r.ms < WITHIN_MS, `the pull took ${r.ms} ms with --timeout ${TIMEOUT_S}\n${r.said}`);
    assert.ok(!r.said.includes(SECRET));
    assert.deepEqual(readdirSync(sc.work), ['.git'], 'nothing is written');
    assert.deepEqual(await treeState(sc.outside), sentinel, 'nothing outside the scratch folder changed');
  };

  it('stdio: initialize never answered, notifications every 200 ms, stdin close and SIGTERM ignored: killed at the timeout', async () => {
    const script = join(sc.root, 'stall.cjs');
    const pidFile = join(sc.root, 'pid');
    const terms = join(sc.root, 'terms');
    writeFileSync(script, DEAF_CHATTY);
    const r = await pull(sc.work, ['--mcp', `${process.execPath} ${script} ${pidFile} ${terms}`]);
    await check(r);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(alive(pid), false, `the server (pid ${pid}) outlived the pull`);
    // Before: its stdin closed, 2 s, SIGTERM (recorded, ignored), 2 s, SIGKILL.
    assert.equal(existsSync(terms), false, 'the server was given the shutdown grace (SIGTERM) rather than killed at the timeout');
  });

  it('Streamable HTTP: initialize answered, the POST of notifications/initialized never answered', async () => {
    const s = hostileHttp('initialized-unanswered');
    servers.push(s);
    await check(await pull(sc.work, ['--mcp-url', await listen(s)]));
  });

  it('Streamable HTTP: initialize answered by an SSE stream of notifications and never a result', async () => {
    const s = hostileHttp('initialize-sse-chat');
    servers.push(s);
    await check(await pull(sc.work, ['--mcp-url', await listen(s)]));
  });
});
