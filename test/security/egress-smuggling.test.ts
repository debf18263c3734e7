// Threat: egress smuggling (a process skill granted one URL prefix carries requests for other paths past the proxy's check, or runs skillctl out of descriptors through it).
// Skills under bubblewrap, granted http://127.0.0.1:P/public, send the proxy what it checks once
// and forwards as more: an upgrade to h2c on a granted path, after which HTTP/2 streams ask the
// same server for /private; a path whose segment `..;` a Tomcat-like server reads as `..`; and
// thousands of requests pipelined on a few connections, each sent on at once on a connection of
// skillctl's own. Before the fix, the h2c stream and the `..;` path reached /private, and one
// connection held 1,000 of skillctl's descriptors (the proxy's limit of 256 counted connections
// from the sandbox, not requests). A GET whose body (chunked, or a Content-Length its Connection
// header names) is a second request: the proxy sent the body on unframed, and the server read it
// as a request for /private (until the stop of 2026-12-01).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createH2Server } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { writeFile } from 'node:fs/promises';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';
import { MAX_CONNECTIONS } from '../../src/core/run/egress/proxy.js';

const POLICY = 'egress-smuggling.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/**
 * Asks the proxy to upgrade `url` to h2c, then, once it answers 101, asks for `path` over
 * HTTP/2 on the same connection (as an h2c client does after RFC 7540 §3.2's upgrade). The
 * socket is paused before the bytes read past the 101 are put back: the server's SETTINGS often
 * arrive in the same read, and a flowing socket with no 'data' listener drops what is unshifted
 * (the HTTP/2 session then fails, ERR_HTTP2_ERROR, as the first CI run of this test did).
 */
const H2C_JS = `const net=require('node:net'),http2=require('node:http2');let s='';
const out=(ok)=>{process.stdout.write(JSON.stringify({ok}));process.exit(0);};
process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const i=JSON.parse(s);
const sock=net.connect(3128,'127.0.0.1',()=>sock.write('GET '+i.url+' HTTP/1.1\\r\\nHost: '+i.host+'\\r\\nConnection: Upgrade, HTTP2-Settings\\r\\nUpgrade: h2c\\r\\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\\r\\n\\r\\n'));
let head=Buffer.alloc(0);sock.on('error',(e)=>out('failed '+e.code));
const onData=(d)=>{head=Buffer.concat([head,d]);const end=head.indexOf('\\r\\n\\r\\n');if(end<0)return;sock.removeListener('data',onData);sock.pause();
const text=head.subarray(0,end).toString();const status=text.split(' ')[1];
if(status!=='101'){const denied=/x-skillctl-denied: (\\S+)/i.exec(text);return out('refused '+status+' '+(denied?denied[1]:''));}
if(head.length>end+4)sock.unshift(head.subarray(end+4));
const session=http2.connect('http://'+i.host,{createConnection:()=>sock});session.on('error',(e)=>out('failed '+e.code));
const r=session.request({':path':i.path});let body='';r.setEncoding('utf8');r.on('data',(c)=>(body+=c));r.on('end',()=>out('h2 '+body));r.on('error',(e)=>out('failed '+e.code));r.end();};
sock.on('data',onData);});`;

/** Opens `connections` connections to the proxy and pipelines `requests` GETs of `url` on each; holds them for `hold` seconds. */
const PIPELINE_PY = `import json, socket, sys, time
i = json.load(sys.stdin)
req = ('GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' % i['url']).encode()
socks = []
for _ in range(i['connections']):
    s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
    s.sendall(req * i['requests'])
    socks.append(s)
time.sleep(i['hold'])
print(json.dumps({'ok': 'sent'}))
`;

/** Fetches `url` through the proxy variables; the status and body, or the refusal's code. */
const FETCH_PY = `import json, sys, urllib.error, urllib.request
i = json.load(sys.stdin)
try:
    with urllib.request.urlopen(i['url'], timeout=10) as r:
        out = 'status %d %s' % (r.status, r.read().decode())
except urllib.error.HTTPError as e:
    out = 'refused %d %s' % (e.code, e.headers.get('x-skillctl-denied'))
print(json.dumps({'ok': out}))
`;

/** Sends `raw` to the proxy as it is; the first line of the answer. */
const RAW_PY = `import json, socket, sys
i = json.load(sys.stdin)
s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
s.sendall(i['raw'].encode())
got = b''
try:
    while b'\\r\\n\\r\\n' not in got:
        d = s.recv(65536)
        if not d:
            break
        got += d
except socket.timeout:
    pass
print(json.dumps({'ok': got.split(b'\\r\\n')[0].decode()}))
`;

/** A GET of a granted path whose body is a request for /private/<framing>, framed as `framing` says. */
function smuggling(framing: 'chunked' | 'length'): string {
  const inner = `GET /private/${framing} HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\n\r\n`;
  const start = `GET http://127.0.0.1:${sitePort}/public/ok HTTP/1.1\r\nHost: 127.0.0.1:${sitePort}\r\n`;
  if (framing === 'chunked') return `${start}Transfer-Encoding: chunked\r\n\r\n${inner.length.toString(16)}\r\n${inner}\r\n0\r\n\r\n`;
  return `${start}Content-Length: ${inner.length}\r\nConnection: keep-alive, Content-Length\r\n\r\n${inner}`;
}

/** A server that reads paths as Tomcat does: a segment's `;parameters` dropped, then its dot segments resolved. */
function tomcatPath(url: string): string {
  const out: string[] = [];
  for (const segment of (url.split('?')[0] ?? '').split('/').slice(1).map((s) => s.split(';')[0] ?? '')) {
    if (segment === '..') out.pop();
    else if (segment !== '.') out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** What the site answers: the secret on /private, the path on anything else. */
const answer = (path: string): string => (path.startsWith('/private') ? 'SITE-PRIVATE' : `site:${path}`);

let site: Server;
let sitePort = 0;
/** Every request line's target the sites were asked for. */
const heard: string[] = [];
/** The same, granted whole (`http://127.0.0.1:P`): every path of it is the skill's. */
let whole: Server;
let wholePort = 0;
/** The connections the sites gave up to HTTP/2: not theirs to close. */
const upgraded = new Set<Socket>();
/**
 * Connections to `holder`, which answers nothing: now, and the most at once, sampled between
 * turns of the event loop. Counted on each event, a connection skillctl opened once another had
 * closed (the agent gives a freed place to a waiting request) could be accepted in the same
 * turn before the other's close was read, one more than skillctl ever held. A connection too
 * many stays open (the holder never answers), so a sample sees it.
 */
let holder: Server;
let holderPort = 0;
const held = { now: 0, most: 0 };
let sampler: NodeJS.Timeout;

const neverAsked = (path: string) => (r: Ran): void => {
  said(/^HTTP\/1\.1 200 /)(r);
  assert.deepEqual(heard.filter((u) => u.startsWith(path)), [], `the site was asked for ${path}`);
};
const said = (pattern: RegExp) => (r: Ran): void => assert.match((r.output as { ok?: string }).ok ?? '', pattern, r.stdout + r.stderr);
const run = (bundle: string, input: unknown) => (sc: Scratch): Promise<Ran> => runTarget(`./bundles/${bundle}`, input, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap' });
/**
 * A run of the pipelining skill, once the holder has seen every connection of the run before
 * close: the count is of this run's connections alone (on a loaded machine the last run's
 * closes arrived during the next, counted with its own).
 */
const pipelined = (input: { connections: number; requests: number; hold: number }) => async (sc: Scratch): Promise<Ran> => {
  for (let waited = 0; held.now > 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  held.most = held.now;
  return run('pipeline', { url: `http://127.0.0.1:${holderPort}/public/slow`, ...input })(sc);
};
const holding = (connections: number, requests: number, most: number) => async (r: Ran): Promise<void> => {
  said(/^sent$/)(r);
  assert.ok(held.most <= most, `${connections} connection(s) pipelining ${requests} requests each held ${held.most} connections of skillctl's to the server at once (at most ${most})`);
  held.most = 0;
};

const rows: Attack[] = [
  {
    what: 'an upgrade to h2c on a granted path, then an HTTP/2 stream for a path outside the prefix',
    code: null,
    exit: 0,
    attempt: (sc) => run('h2c', { url: `http://127.0.0.1:${sitePort}/public/upgrade`, host: `127.0.0.1:${sitePort}`, path: '/private/key' })(sc),
    check: said(/^refused 403 POLICY_URL_DENIED$/),
  },
  {
    what: "a path whose segment `..;` a Tomcat-like server reads as `..` (/public/..;/private)",
    code: null,
    exit: 0,
    attempt: (sc) => run('fetch', { url: `http://127.0.0.1:${sitePort}/public/..;/private/key` })(sc),
    check: said(/^refused 403 POLICY_URL_INVALID$/),
  },
  {
    what: `one connection pipelining 1,000 requests to a server that never answers: at most ${MAX_CONNECTIONS} connections to servers at once`,
    code: null,
    exit: 0,
    attempt: pipelined({ connections: 1, requests: 1000, hold: 3 }),
    check: holding(1, 1000, MAX_CONNECTIONS),
  },
  {
    what: `40 connections pipelining 30 requests each: at most ${MAX_CONNECTIONS} connections to servers at once`,
    code: null,
    exit: 0,
    attempt: pipelined({ connections: 40, requests: 30, hold: 4 }),
    check: holding(40, 30, MAX_CONNECTIONS),
  },
  {
    what: 'an upgrade to h2c under a grant of the whole origin, where every path is granted: carried',
    code: null,
    exit: 0,
    attempt: (sc) => run('h2c', { url: `http://127.0.0.1:${wholePort}/upgrade`, host: `127.0.0.1:${wholePort}`, path: '/other' })(sc),
    check: said(/^h2 site:\/other$/),
  },
  {
    what: 'a GET of a granted path whose chunked body is a second request, for a path outside the prefix',
    code: null,
    exit: 0,
    attempt: (sc) => run('raw', { raw: smuggling('chunked') })(sc),
    check: neverAsked('/private/chunked'),
  },
  {
    what: 'a GET of a granted path whose Content-Length its Connection header names (hop-by-hop), its body a second request',
    code: null,
    exit: 0,
    attempt: (sc) => run('raw', { raw: smuggling('length') })(sc),
    check: neverAsked('/private/length'),
  },
  { what: 'a granted path, fetched as before', code: null, exit: 0, attempt: (sc) => run('fetch', { url: `http://127.0.0.1:${sitePort}/public/ok` })(sc), check: said(/^status 200 site:\/public\/ok$/) },
];

/** A Tomcat-like server that is also an h2c server: it agrees to the upgrade and serves HTTP/2 on the connection from then on. */
function h2cSite(): Server {
  const server = createServer((req: IncomingMessage, res) => {
    heard.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(answer(tomcatPath(req.url ?? '')));
  });
  const h2 = createH2Server((req, res) => res.end(answer(req.url)));
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    if (req.headers.upgrade !== 'h2c') return void socket.destroy();
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
    h2.emit('connection', socket);
  });
  return server;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('egress smuggling: what the proxy checked once is all it carries', () => {
  const s = scratch('skillctl-attack-egress-smuggling-');
  before(async () => {
    site = h2cSite();
    sitePort = await listen(site);
    whole = h2cSite();
    wholePort = await listen(whole);
    holder = createServer(() => undefined);
    holder.on('connection', (c: Socket) => {
      held.now++;
      c.on('close', () => held.now--);
    });
    sampler = setInterval(() => (held.most = Math.max(held.most, held.now)), 5);
    holderPort = await listen(holder);
    const python = (command: string, file: string, text: string) => ({
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command, output_schema: OK, requested_permissions: { 'net.http': ['http://*'] } })],
      files: { [file]: text },
    });
    await writeBundle(join(s.work, 'bundles', 'fetch'), python('python3 fetch.py', 'fetch.py', FETCH_PY));
    await writeBundle(join(s.work, 'bundles', 'raw'), python('python3 raw.py', 'raw.py', RAW_PY));
    await writeBundle(join(s.work, 'bundles', 'pipeline'), python('python3 pipeline.py', 'pipeline.py', PIPELINE_PY));
    await writeBundle(join(s.work, 'bundles', 'h2c'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.versions.node, command: 'node main.js', output_schema: OK, requested_permissions: { 'net.http': ['http://*'] } })],
      files: { 'main.js': H2C_JS },
    });
    await writeFile(join(s.work, POLICY), ['version: 1', 'permissions:', '  fs.read: [.]', '  net.http:', `    - http://127.0.0.1:${sitePort}/public`, `    - http://127.0.0.1:${holderPort}/public`, `    - http://127.0.0.1:${wholePort}`, ''].join('\n'));
  });
  after(async () => {
    clearInterval(sampler);
    for (const server of [site, whole, holder]) server.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
    await new Promise((resolve) => site.close(resolve));
    await new Promise((resolve) => whole.close(resolve));
    await new Promise((resolve) => holder.close(resolve));
  });

  attackRows(rows, s);
});
