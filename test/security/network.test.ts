// Threat: network and SSRF (a skill, or the server it fetches from, reaches an address the policy did not grant, or holds the run).
// http.fetch_text against real servers on 127.0.0.1: redirects out of the granted prefix, to
// another host, to the cloud metadata address, to file:, in a loop; names that resolve to
// loopback, look-alike prefixes, other spellings of loopback, dot segments and credentials in the
// URL; a server that never answers, sends forever, trickles forever, sends a gzip bomb or headers
// that never end. Each is refused before the request is made (the server's log says which
// requests it received) or answered within the run's bounds. With a resolver the test controls:
// every answer counts, and the connection goes to the address that was checked.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { HostLookup } from '../../src/core/policy/index.js';
import { EGRESS_PORT } from '../../src/core/run/egress/bridge.js';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { serve, serveRaw, withAddress, type TestServer } from '../helpers/network.js';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, okOutput, runSkill } from '../helpers/skill-contract.js';
import type { Fetched } from '../helpers/skill-responses.js';

const SPEC = '# Spec\n';
/** 1 GiB of `z` as 1,024 gzip members of 1 MiB each: about 1 MiB on the wire. */
const BOMB = ((member: Buffer) => Buffer.concat(Array.from({ length: 1024 }, () => member)))(gzipSync(Buffer.alloc(1 << 20, 0x7a)));

let srv: TestServer;
let raw: { port: number; close: () => Promise<void> };

before(async () => {
  srv = await serve((req, res, base) => {
    const to = (status: number, location: string): void => void res.writeHead(status, { location }).end();
    switch (req.url) {
      case '/spec.md':
      case '/public/ok':
        return void res.writeHead(200, { 'content-type': 'text/markdown' }).end(SPEC);
      case '/public/jump':
        return to(301, `${base}/private/secret`);
      case '/public/other-host':
        return to(302, `http://localhost:${srv.port}/public/ok`);
      case '/public/metadata':
        return to(302, 'http://169.254.169.254/latest/meta-data/');
      case '/public/file':
        return to(302, 'file:///etc/passwd');
      case '/public/loop':
        return to(307, '/public/loop');
      case '/public/forever': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        return pump();
      }
      case '/public/trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('a'), 50);
        return void res.on('close', () => clearInterval(t));
      }
      case '/public/bomb':
        return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(BOMB);
      case '/public/slow':
      case '/slow':
        return; // never answers
      default:
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('private data');
    }
  });
  // A status line, then header lines, one a millisecond, never the blank line that ends them.
  raw = await serveRaw((socket) => {
    socket.write('HTTP/1.1 200 OK\r\n');
    const t = setInterval(() => socket.write(`X-Pad: ${'p'.repeat(1000)}\r\n`), 1);
    socket.on('close', () => clearInterval(t));
  });
});
after(async () => {
  await srv.close();
  await raw.close();
});

/** The policy files: the server's /public prefix; that and its name `localhost`; the raw server. */
const POLICY = 'net.policy.yaml';
const BY_NAME = 'by-name.policy.yaml';
const RAW = 'raw.policy.yaml';
/** node for shell.exec_safe, without and with the server's address. */
const EXEC = 'exec.policy.yaml';
const EXEC_NET = 'exec-net.policy.yaml';

/** http.fetch_text of `url()` (max_bytes 1000) under `policy` (null: none, the default policy), the server's log cleared first. */
const fetch = (url: () => string, policy: string | null = POLICY) => (sc: Scratch): Promise<Ran> => {
  srv.seen.length = 0;
  return runTarget('http.fetch_text', { url: url(), max_bytes: 1000 }, { cwd: sc.work, ...(policy !== null ? { policy } : {}) });
};
/** shell.exec_safe running node that opens a TCP connection to the server and says whether it connected. */
const connect = (sc: Scratch, policy: string, port = srv.port): Promise<Ran> => {
  const probe = `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })`;
  return runTarget('shell.exec_safe', { argv: ['node', '-e', probe] }, { cwd: sc.work, policy });
};
const at = (path: string) => (): string => `${srv.base}${path}`;
/** The server received exactly these requests. */
const received = (...paths: string[]) => (): void => assert.deepEqual(srv.seen, paths);
const cut = (r: Ran): void => {
  const out = r.output as Fetched;
  assert.deepEqual([out.bytes, out.truncated], [1000, true]);
};

const rows: Attack[] = [
  { what: 'a redirect out of the granted prefix', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(at('/public/jump')), check: received('/public/jump') },
  { what: 'a redirect to another host name', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(at('/public/other-host')), check: received('/public/other-host') },
  {
    what: 'a redirect to a granted name that resolves to loopback',
    code: 'POLICY_ADDRESS_PRIVATE',
    exit: 3,
    attempt: fetch(at('/public/other-host'), BY_NAME),
    check: received('/public/other-host'),
  },
  { what: 'a redirect to the cloud metadata address', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(at('/public/metadata')), check: received('/public/metadata') },
  { what: 'a redirect to file:///etc/passwd', code: 'SKILL_REDIRECT_LIMIT', exit: 1, attempt: fetch(at('/public/file')), check: received('/public/file') },
  { what: 'a redirect loop', code: 'SKILL_REDIRECT_LIMIT', exit: 1, attempt: fetch(at('/public/loop')), check: received(...Array<string>(6).fill('/public/loop')) },
  { what: 'a granted name that resolves to loopback (localhost)', code: 'POLICY_ADDRESS_PRIVATE', exit: 3, attempt: fetch(() => `http://localhost:${srv.port}/public/ok`, BY_NAME), check: received() },
  { what: 'loopback with no policy (no network by default)', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(at('/public/ok'), null), check: received() },
  { what: 'a prefix look-alike (/publicity)', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(at('/publicity')), check: received() },
  { what: 'another loopback address (127.0.0.2)', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(() => `http://127.0.0.2:${srv.port}/public/ok`), check: received() },
  { what: 'loopback as an IPv4-mapped IPv6 address', code: 'POLICY_URL_DENIED', exit: 3, attempt: fetch(() => `http://[::ffff:127.0.0.1]:${srv.port}/public/ok`), check: received() },
  { what: 'an encoded dot segment (/public/%2e%2e/private)', code: 'POLICY_URL_INVALID', exit: 3, attempt: fetch(at('/public/%2e%2e/private')), check: received() },
  { what: 'a dot segment (/public/../private)', code: 'POLICY_URL_INVALID', exit: 3, attempt: fetch(at('/public/../private')), check: received() },
  { what: 'credentials in the URL', code: 'POLICY_URL_INVALID', exit: 3, attempt: fetch(() => `http://user:pw@127.0.0.1:${srv.port}/public/ok`), check: received() },
  { what: 'a server that never answers (stopped at the 2 s cap)', code: 'SKILL_TIMED_OUT', exit: 124, attempt: fetch(at('/public/slow')) },
  { what: 'a server that sends forever (read up to max_bytes)', code: null, exit: 0, attempt: fetch(at('/public/forever')), check: cut },
  { what: 'a server that trickles a byte every 50 ms forever (stopped at the 2 s cap)', code: 'SKILL_TIMED_OUT', exit: 124, attempt: fetch(at('/public/trickle')) },
  { what: 'a gzip bomb (1 GiB of text in 1 MiB, inflated up to max_bytes)', code: null, exit: 0, attempt: fetch(at('/public/bomb')), check: cut },
  { what: 'headers that never end', code: 'SKILL_HTTP_FAILED', exit: 1, attempt: fetch(() => `http://127.0.0.1:${raw.port}/x`, RAW) },
  {
    what: "shell.exec_safe's command connects to the server without net.http: no network in its sandbox",
    code: null,
    exit: 0,
    attempt: (sc) => connect(sc, EXEC),
    check: async (r, sc) => {
      assert.notEqual((r.output as { stdout: string }).stdout, 'connected\n');
      // The control: granted the address, the same command reaches the egress proxy's bridge
      // (the only way out then: egress.test.ts), which does not exist without the grant.
      assert.equal(((await connect(sc, EXEC, EGRESS_PORT)).output as { stdout: string }).stdout, 'ECONNREFUSED\n');
      assert.equal(((await connect(sc, EXEC_NET, EGRESS_PORT)).output as { stdout: string }).stdout, 'connected\n');
    },
  },
];

describe('network and SSRF: http.fetch_text against hostile servers, through skillctl run', () => {
  const s = scratch('skillctl-attack-net-');
  before(async () => {
    const policy = (urls: string[]): string => `version: 1\npermissions:\n  net.http: ${JSON.stringify(urls)}\nlimits:\n  max_execution_time: 2s\n`;
    await writeFile(join(s.work, POLICY), policy([`${srv.base}/public`]));
    await writeFile(join(s.work, BY_NAME), policy([`${srv.base}/public`, `http://localhost:${srv.port}/`]));
    await writeFile(join(s.work, RAW), policy([`http://127.0.0.1:${raw.port}/`]));
    await writeFile(join(s.work, EXEC), 'version: 1\npermissions:\n  fs.read: [.]\n  exec: [node]\n');
    await writeFile(join(s.work, EXEC_NET), `version: 1\npermissions:\n  fs.read: [.]\n  exec: [node]\n  net.http: ["${srv.base}"]\n`);
  });

  attackRows(rows, s);
});

describe('network and SSRF: what a resolver answers (DNS the test controls)', () => {
  const ctxFor = (http: string[], lookupHost: HostLookup) => skillContext('http.fetch_text', { cwd: '/', policy: { http }, lookupHost });

  it('a name whose answers mix a public and a private address: POLICY_ADDRESS_PRIVATE, no connection made', async () => {
    srv.seen.length = 0;
    const mixed = await ctxFor([`http://mixed.invalid:${srv.port}/`], async () => ['93.184.216.34', '10.0.0.1']);
    assert.equal(denialCode(await runSkill('http.fetch_text', { url: `http://mixed.invalid:${srv.port}/spec.md` }, mixed.ctx)), 'POLICY_ADDRESS_PRIVATE');
    assert.deepEqual(srv.seen, [], 'no connection was made');
  });

  it('connects to the address the policy checked, without looking the name up again (DNS pinning)', async () => {
    // pinned.invalid resolves nowhere (RFC 6761): the fetch can succeed only by connecting to the
    // decision's address. The gate's own answer is the public address its resolver gave, which no
    // test can serve, so that address is pointed at the test server (whose literal is granted too).
    const { ctx, gate } = await ctxFor([`http://pinned.invalid:${srv.port}/`, `${srv.base}/`], async () => ['93.184.216.34']);
    srv.seen.length = 0;
    const out = okOutput<Fetched>(await runSkill('http.fetch_text', { url: `http://pinned.invalid:${srv.port}/spec.md` }, { ...ctx, policy: withAddress(gate, '127.0.0.1') }));
    assert.deepEqual([out.final_url, out.text], [`http://pinned.invalid:${srv.port}/spec.md`, SPEC]);
    assert.deepEqual(srv.seen, ['/spec.md']);
    assert.equal(srv.hosts.at(-1), `pinned.invalid:${srv.port}`, 'the Host header keeps the name');
    // Without the decision's address the skill would have to look the name up: it does not resolve.
    const unpinned = await runSkill('http.fetch_text', { url: `http://pinned.invalid:${srv.port}/spec.md` }, { ...ctx, policy: withAddress(gate, undefined) });
    assert.equal(errorCode(unpinned), 'SKILL_HTTP_FAILED');
  });

  it('under a gate that does not pin, checks the address of each connection itself', async () => {
    // The gate allows localhost (its resolver said public) and gives no address: the skill's own
    // lookup finds loopback when it connects, and uses it only if the policy names that literal.
    const lookupHost = async (): Promise<string[]> => ['93.184.216.34'];
    const only = await ctxFor([`http://localhost:${srv.port}/`], lookupHost);
    srv.seen.length = 0;
    const refused = await runSkill('http.fetch_text', { url: `http://localhost:${srv.port}/spec.md` }, { ...only.ctx, policy: withAddress(only.gate, undefined) });
    assert.equal(denialCode(refused), 'POLICY_ADDRESS_PRIVATE');
    assert.equal((refused as { decision: { scope?: string } }).decision.scope, 'net.http');
    assert.deepEqual(srv.seen, [], 'no connection was made');
    const named = await ctxFor([`http://localhost:${srv.port}/`, `${srv.base}/`, `http://[::1]:${srv.port}/`], lookupHost);
    const out = okOutput<Fetched>(await runSkill('http.fetch_text', { url: `http://localhost:${srv.port}/spec.md` }, { ...named.ctx, policy: withAddress(named.gate, undefined) }));
    assert.equal(out.text, SPEC);
  });
});
