// Threat: egress (a process skill granted one URL prefix reaches another host, port or path, or a service on the host's loopback).
// A python skill granted http://127.0.0.1:P/public, run under bubblewrap, fetches through the
// proxy variables, opens sockets past them (to the granted port and to a secret service on
// another loopback port), tunnels with CONNECT to granted and other ports, and names a host that
// resolves to loopback; shell.exec_safe's python3 does the same, through the proxy and past it. Before
// the egress proxy, net.http shared the host's whole network: every one of these reached its
// target. Each row checks what the servers received. (A container's network: container-network.test.ts.)
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { attackRows, attempt, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';
import { serve, type TestServer } from '../helpers/network.js';
import { nodeReadsProxyEnv } from '../../src/core/run/runtimes/interpreter.js';
import { createRunAuthority } from '../../src/core/run/egress/cert.js';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';

const POLICY = 'egress.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/** Fetches `url` (urllib: through the proxy variables), or connects to `direct` past them, or tunnels to `tunnel` through the proxy. */
const FETCH_PY = `import json, socket, ssl, sys, urllib.error, urllib.request
i = json.load(sys.stdin)
def get(sock, path, host):
    sock.sendall(('GET %s HTTP/1.0\\r\\nHost: %s\\r\\n\\r\\n' % (path, host)).encode())
    data = b''
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data.decode()
        data += chunk
try:
    if 'url' in i:
        for _ in range(i.get('times', 1)):
            try:
                ctx = None
                if 'cafile' in i:
                    ctx = ssl.create_default_context()
                    ctx.load_verify_locations(i['cafile'])
                with urllib.request.urlopen(i['url'], timeout=10, context=ctx) as r:
                    out = 'status %d %s' % (r.status, r.read().decode())
            except urllib.error.HTTPError as e:
                out = 'refused %d %s' % (e.code, e.headers.get('x-skillctl-denied'))
    elif 'direct' in i:
        s = socket.create_connection(tuple(i['direct']), timeout=5)
        out = 'direct ' + get(s, '/secret', 'x')
    else:
        s = socket.create_connection(('127.0.0.1', 3128), timeout=5)
        s.sendall(('CONNECT %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n' % (i['tunnel'], i['tunnel'])).encode())
        head = s.recv(65536).decode()
        status = head.split(' ')[1]
        if status != '200':
            out = 'tunnel %s %s' % (status, [l.split(': ')[1] for l in head.split('\\r\\n') if l.lower().startswith('x-skillctl-denied')])
        else:
            out = 'tunnel 200 ' + get(s, i['path'], i['tunnel'])
except Exception as e:
    out = 'failed %s' % type(e).__name__
    if isinstance(e, urllib.error.URLError):
        # Why, for a row that fails: the TLS or socket error behind it.
        out += ' %s' % e.reason
print(json.dumps({'ok': out}))
`;

/** Node's fetch, which reads the proxy variables from node 22.21 and 24 on (NODE_USE_ENV_PROXY). */
const FETCH_JS = `let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',async()=>{const i=JSON.parse(s);let ok;
try{const r=await fetch(i.url);ok='status '+r.status+' '+(r.headers.get('x-skillctl-denied')??(await r.text()));}catch(e){ok='failed '+(e.cause?.code??e.name);}
process.stdout.write(JSON.stringify({ok}));});`;
const NODE_PROXIES = nodeReadsProxyEnv(process.versions.node);

let site: TestServer;
let secret: TestServer;
/** An HTTPS site whose certificate a CA of the test's signs; skillctl trusts it through NODE_EXTRA_CA_CERTS, as a host trusts its own CAs. */
let secure: HttpsServer;
let securePort = 0;
const secureSeen: string[] = [];
const siteCa = createRunAuthority();
const HTTPS = 'egress-https.policy.yaml';
/**
 * A python skill granted https://127.0.0.1:P/public fetching a path through the proxy, trusting
 * what its environment names and the site's CA besides: before the proxy read HTTPS, the tunnel
 * reached the site itself, and every path of it.
 */
const fetchHttps = (path: string) => (sc: Scratch): Promise<Ran> =>
  runTarget('./bundles/fetch', { url: `https://127.0.0.1:${securePort}${path}`, cafile: 'site-ca.pem' }, { cwd: sc.work, policy: HTTPS, sandbox: 'bwrap', env: { NODE_EXTRA_CA_CERTS: join(sc.work, 'site-ca.pem') } });

const run = (target: string, input: unknown) => (sc: Scratch): Promise<Ran> =>
  runTarget(target, input, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap', audit: join(sc.work, 'audit.jsonl') });
const said = (pattern: RegExp) => (r: Ran): void => assert.match((r.output as { ok?: string; stdout?: string }).ok ?? (r.output as { stdout: string }).stdout, pattern, r.stdout);
const nodeFetch = (url: () => string) => (sc: Scratch): Promise<Ran> => run('./bundles/node-fetch', { url: url() })(sc);
const fetchSkill = (input: Record<string, unknown>): ((sc: Scratch) => Promise<Ran>) => run('./bundles/fetch', input);
/** What shell.exec_safe's python3 runs: fetch argv[1] (urllib, through the proxy variables), or connect to argv[1]:argv[2] past them. */
const EXEC_PY = `import socket, sys, urllib.error, urllib.request
try:
    if len(sys.argv) == 2:
        print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
    else:
        s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
        s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')
        print(s.recv(65536).decode())
except urllib.error.HTTPError as e:
    print(e.read().decode())
except Exception as e:
    print('failed', type(e).__name__)
`;
const execPy = (...args: string[]): ((sc: Scratch) => Promise<Ran>) => run('shell.exec_safe', { argv: ['python3', '-c', EXEC_PY, ...args] });
/** The same, under a policy that also grants reading the host's /run and /tmp (where a socket's mount point could not be made). */
const RUN_TMP = 'egress-run-tmp.policy.yaml';
const execPyRunTmp = (url: string) => (sc: Scratch): Promise<Ran> =>
  runTarget('shell.exec_safe', { argv: ['python3', '-c', EXEC_PY, url] }, { cwd: sc.work, policy: RUN_TMP, sandbox: 'bwrap' });

const base = (): string => site.base;
const rows: Attack[] = [
  { what: 'a granted URL, through the proxy variables', code: null, exit: 0, attempt: (sc) => fetchSkill({ url: `${base()}/public/ok` })(sc), check: said(/^status 200 site:\/public\/ok$/) },
  { what: 'a path outside the granted prefix', code: null, exit: 0, attempt: (sc) => fetchSkill({ url: `${base()}/private/key` })(sc), check: said(/^refused 403 POLICY_URL_DENIED$/) },
  {
    what: 'the same refused request, 200 times',
    code: null,
    exit: 0,
    attempt: (sc) => fetchSkill({ url: `${base()}/private/again`, times: 200 })(sc),
    check: async (r, sc) => {
      said(/^refused 403 POLICY_URL_DENIED$/)(r);
      // Recorded once: a loop of refusals does not grow the audit record.
      const last = (await readFile(join(sc.work, 'audit.jsonl'), 'utf8')).trim().split('\n').at(-1) as string;
      assert.deepEqual((JSON.parse(last) as { policy: { denials: unknown[] } }).policy.denials, [{ scope: 'net.http', code: 'POLICY_URL_DENIED', reason: 'net.http: the URL is not covered by the granted prefixes' }]);
    },
  },
  { what: 'a host name that resolves to loopback, though granted by name', code: null, exit: 0, attempt: (sc) => fetchSkill({ url: `http://localhost:${site.port}/public/ok` })(sc), check: said(/^refused 403 POLICY_ADDRESS_PRIVATE$/) },
  { what: 'a socket to the granted port, past the proxy', code: null, exit: 0, attempt: (sc) => fetchSkill({ direct: ['127.0.0.1', site.port] })(sc), check: said(/^failed ConnectionRefusedError$/) },
  { what: "a socket to a service on the host's loopback that nothing grants", code: null, exit: 0, attempt: (sc) => fetchSkill({ direct: ['127.0.0.1', secret.port] })(sc), check: said(/^failed ConnectionRefusedError$/) },
  { what: 'a tunnel to the granted host and port', code: null, exit: 0, attempt: (sc) => fetchSkill({ tunnel: `127.0.0.1:${site.port}`, path: '/public/tunnelled' })(sc), check: said(/^tunnel 200 HTTP\/1\.1 200 OK[\s\S]*site:\/public\/tunnelled$/) },
  {
    what: 'a tunnel to the granted host and port, asking for a path outside the prefix',
    code: null,
    exit: 0,
    attempt: (sc) => fetchSkill({ tunnel: `127.0.0.1:${site.port}`, path: '/private/tunnelled' })(sc),
    check: said(/^tunnel 200 HTTP\/1\.1 403 Forbidden[\s\S]*skillctl egress: POLICY_URL_DENIED: /),
  },
  { what: 'a tunnel to another port', code: null, exit: 0, attempt: (sc) => fetchSkill({ tunnel: `127.0.0.1:${secret.port}`, path: '/' })(sc), check: said(/^tunnel 403 \['POLICY_URL_DENIED'\]$/) },
  { what: 'a tunnel to the cloud metadata address', code: null, exit: 0, attempt: fetchSkill({ tunnel: '169.254.169.254:80', path: '/' }), check: said(/^tunnel 403 \['POLICY_URL_DENIED'\]$/) },
  { what: "shell.exec_safe's program, a granted URL", code: null, exit: 0, attempt: (sc) => execPy(`${base()}/public/exec`)(sc), check: said(/^site:\/public\/exec\n$/) },
  { what: "shell.exec_safe's program under a grant of the host's /run and /tmp, a granted URL", code: null, exit: 0, attempt: (sc) => execPyRunTmp(`${base()}/public/run-tmp`)(sc), check: said(/^site:\/public\/run-tmp\n$/) },
  { what: "shell.exec_safe's program, a path outside the prefix", code: null, exit: 0, attempt: (sc) => execPy(`${base()}/private/exec`)(sc), check: said(/^skillctl egress: POLICY_URL_DENIED: /) },
  { what: "shell.exec_safe's program, a socket to a loopback service past the proxy", code: null, exit: 0, attempt: (sc) => execPy('127.0.0.1', String(secret.port))(sc), check: said(/^failed ConnectionRefusedError\n$/) },
  {
    what: "a node skill's fetch, a granted URL",
    code: null,
    exit: 0,
    attempt: nodeFetch(() => `${base()}/public/node`),
    check: said(NODE_PROXIES ? /^status 200 site:\/public\/node$/ : /^failed (ECONNREFUSED|ENOTFOUND|EAI_AGAIN)$/),
  },
  {
    what: "a node skill's fetch, a path outside the prefix",
    code: null,
    exit: 0,
    attempt: nodeFetch(() => `${base()}/private/node`),
    check: said(NODE_PROXIES ? /^status 403 POLICY_URL_DENIED$/ : /^failed (ECONNREFUSED|ENOTFOUND|EAI_AGAIN)$/),
  },
  { what: 'HTTPS under a grant with a path prefix: a granted path, read by the proxy', code: null, exit: 0, attempt: (sc) => fetchHttps('/public/tls')(sc), check: said(/^status 200 secure:\/public\/tls$/) },
  { what: 'HTTPS under a grant with a path prefix: a path outside it, refused inside the tunnel', code: null, exit: 0, attempt: (sc) => fetchHttps('/private/tls')(sc), check: said(/^refused 403 POLICY_URL_DENIED$/) },
  {
    what: "HTTPS under a grant with a path prefix: a node skill's fetch, a granted path and one outside it",
    code: null,
    exit: 0,
    attempt: async (sc) => {
      const ask = (path: string): Promise<Ran> =>
        runTarget('./bundles/node-fetch', { url: `https://127.0.0.1:${securePort}${path}` }, { cwd: sc.work, policy: HTTPS, sandbox: 'bwrap', env: { NODE_EXTRA_CA_CERTS: join(sc.work, 'site-ca.pem') } });
      const outside = await ask('/private/node-tls');
      said(NODE_PROXIES ? /^status 403 POLICY_URL_DENIED$/ : /^failed (ECONNREFUSED|ENOTFOUND|EAI_AGAIN)$/)(outside);
      return ask('/public/node-tls');
    },
    check: said(NODE_PROXIES ? /^status 200 secure:\/public\/node-tls$/ : /^failed (ECONNREFUSED|ENOTFOUND|EAI_AGAIN)$/),
  },
  {
    what: "HTTPS: a client that keeps its own trust store (the host's CAs, not the run's) gets no answer, and the site gets no request",
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('shell.exec_safe', { argv: ['python3', '-c', TLS_OWN_STORE_PY, `https://127.0.0.1:${securePort}/public/own-store`] }, { cwd: sc.work, policy: HTTPS_EXEC, sandbox: 'bwrap', env: { NODE_EXTRA_CA_CERTS: join(sc.work, 'site-ca.pem') } }),
    check: said(/^failed .*CERTIFICATE_VERIFY_FAILED/),
  },
  {
    // The socket is covered in the thief's sandbox (it lies under a read grant); were it not, the
    // proxy would close it unanswered, having no token (test/core/run/egress/proxy.test.ts).
    what: "a skill of another run, shown the temporary directory, sends a request through this run's proxy socket: refused at connect",
    code: null,
    exit: 0,
    attempt: async (sc) => {
      // The victim keeps its proxy open for a while; its socket is in the directory the thief may read.
      const victim = runTarget('./bundles/sleeper', {}, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap', env: { TMPDIR: join(sc.work, 'vtmp') } });
      // Until the socket itself is there, not only its folder: one made after the thief's sandbox
      // was set up is not covered (docs/security.md, "What remains"), and the proxy then closes it
      // unanswered, which a loaded machine made this row see instead.
      for (let i = 0; i < 400 && !(await holdsProxySocket(join(sc.work, 'vtmp'))); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const thief = await runTarget('shell.exec_safe', { argv: ['python3', '-c', STEAL_PY, join(sc.work, 'vtmp'), `http://127.0.0.1:${site.port}/public/stolen`] }, { cwd: sc.work, policy: THIEF, sandbox: 'bwrap' });
      await victim;
      return thief;
    },
    check: said(/^sockets 1 answers \['refused'\]\n$/),
  },
];

/** A program that verifies against a store of its own (the host's CAs), as one that ignores SSL_CERT_FILE or pins does. */
const TLS_OWN_STORE_PY = `import ssl, sys, urllib.request
try:
    ctx = ssl.create_default_context(cafile='/etc/ssl/certs/ca-certificates.crt')
    print(urllib.request.urlopen(sys.argv[1], timeout=10, context=ctx).read().decode())
except Exception as e:
    print('failed', type(e).__name__, e)
`;
const HTTPS_EXEC = 'egress-https-exec.policy.yaml';

/** Whether a run's proxy socket is in `dir`, as STEAL_PY looks for it (two levels down at most). */
async function holdsProxySocket(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.some((e) => e.endsWith('/proxy.sock') && e.split('/').length <= 3);
}

/** Finds every proxy socket under argv[1] and asks each for argv[2], as a program without the token would. */
const STEAL_PY = `import glob, socket, sys
answers = []
paths = glob.glob(sys.argv[1] + '/skillctl-egress-*/proxy.sock') + glob.glob(sys.argv[1] + '/skillctl-*/skillctl-egress-*/proxy.sock')
for p in paths:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(15)
    try:
        s.connect(p)
    except ConnectionRefusedError:
        answers.append('refused')
        continue
    s.sendall(('GET %s HTTP/1.0\\r\\n\\r\\n' % sys.argv[2]).encode())
    got = b''
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except Exception as e:
        got += type(e).__name__.encode()
    answers.append(got.decode())
print('sockets', len(paths), 'answers', answers)
`;
const THIEF = 'thief.policy.yaml';


describe('egress: a process skill reaches only what its net.http grant names, through the proxy', () => {
  const s = scratch('skillctl-attack-egress-');
  before(async () => {
    site = await serve((req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(`site:${req.url ?? ''}`));
    secret = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret-service'));
    await writeBundle(join(s.work, 'bundles', 'fetch'), {
      entrypoints: [
        entry({
          runtime: 'python',
          runtime_version: PYTHON_VERSION,
          command: 'python3 fetch.py',
          output_schema: OK,
          requested_permissions: { 'net.http': ['http://*', 'https://*'] },
        }),
      ],
      files: { 'fetch.py': FETCH_PY, 'site-ca.pem': siteCa.certificate },
    });
    await writeFile(join(s.work, RUN_TMP), ['version: 1', 'permissions:', '  fs.read: [., /run, /tmp]', '  net.http:', `    - http://127.0.0.1:${site.port}/public`, '  exec: [python3]', ''].join('\n'));
    await writeBundle(join(s.work, 'bundles', 'node-fetch'), {
      entrypoints: [entry({ runtime: 'node', runtime_version: process.versions.node, command: 'node main.js', output_schema: OK, requested_permissions: { 'net.http': ['http://*', 'https://*'] } })],
      files: { 'main.js': FETCH_JS },
    });
    secure = createHttpsServer({ ...siteCa.issue('127.0.0.1') }, (req, res) => {
      secureSeen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`secure:${req.url ?? ''}`);
    });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    securePort = (secure.address() as { port: number }).port;
    await writeFile(join(s.work, 'site-ca.pem'), siteCa.certificate);
    const httpsPolicy = ['version: 1', 'permissions:', '  fs.read: [.]', '  net.http:', `    - https://127.0.0.1:${securePort}/public`, '  exec: [python3]', ''];
    await writeFile(join(s.work, HTTPS), httpsPolicy.join('\n'));
    await writeFile(join(s.work, HTTPS_EXEC), httpsPolicy.join('\n').replace('fs.read: [.]', 'fs.read: [., /etc/ssl]'));
    await mkdir(join(s.work, 'vtmp'));
    await writeFile(join(s.work, THIEF), ['version: 1', 'permissions:', `  fs.read: [., ${join(s.work, 'vtmp')}]`, '  exec: [python3]', ''].join('\n'));
    await writeBundle(join(s.work, 'bundles', 'sleeper'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 main.py', output_schema: OK, requested_permissions: { 'net.http': ['http://*'] } })],
      files: { 'main.py': 'import json, time\ntime.sleep(4)\nprint(json.dumps({"ok": "slept"}))\n' },
    });
    await writeFile(
      join(s.work, POLICY),
      [
        'version: 1',
        'permissions:',
        '  fs.read: [.]',
        '  net.http:',
        `    - http://127.0.0.1:${site.port}/public`,
        `    - http://localhost:${site.port}/public`,
        '  exec: [python3]',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    await site.close();
    await secret.close();
    await new Promise((resolve) => secure.close(resolve));
  });

  attackRows(rows, s);

  it('the servers received only the granted requests', () => {
    assert.deepEqual([...site.seen].sort(), ['/public/exec', ...(NODE_PROXIES ? ['/public/node'] : []), '/public/ok', '/public/run-tmp', '/public/tunnelled']);
    assert.deepEqual(secret.seen, []);
    assert.deepEqual(secureSeen, ['/public/tls', ...(NODE_PROXIES ? ['/public/node-tls'] : [])]);
  });

  it("the audit trail names each of the proxy's refusals", async () => {
    const records = (await readFile(join(s.work, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const text = JSON.stringify(records);
    for (const code of ['POLICY_URL_DENIED', 'POLICY_ADDRESS_PRIVATE']) assert.ok(text.includes(code), code);
    // A run that went on after a refusal ends ok, with the decision deny; the log verifies.
    const refused = records.find((r) => r.event === 'end' && JSON.stringify(r.policy).includes('POLICY_URL_DENIED')) as { policy: { decision: string; denials: unknown[] }; result: { status: string } } | undefined;
    assert.equal(refused?.policy.decision, 'deny');
    assert.equal(refused?.result.status, 'ok');
    assert.equal((await attempt(['audit', 'verify', join(s.work, 'audit.jsonl')], { cwd: s.work })).exit, 0);
  });
});
