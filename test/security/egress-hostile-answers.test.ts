// Threat: egress answers (a server a process skill is granted answers what the egress proxy cannot write back to the skill, and crashes skillctl mid-run).
// A skill under bubblewrap, granted http://127.0.0.1:P/, asks a server that answers with a
// status line Node's HTTP parser reads but its HTTP server will not write: a reason phrase holding
// a control character, a status code under 100. Before the fix the proxy wrote it back as it
// was, the exception was thrown in skillctl's event loop, and skillctl died with a stack trace in
// the middle of the run, its record left without an end (until the stop of 2026-12-01).
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { PYTHON_VERSION } from '../helpers/fs-tool.js';

const POLICY = 'egress-hostile-answers.policy.yaml';
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/** Fetches `url` through the proxy variables; the status, or the error it met. */
const FETCH_PY = `import json, sys, urllib.error, urllib.request
i = json.load(sys.stdin)
try:
    with urllib.request.urlopen(i['url'], timeout=10) as r:
        out = 'status %d' % r.status
except urllib.error.HTTPError as e:
    out = 'status %d' % e.code
except Exception as e:
    out = 'failed %s' % type(e).__name__
print(json.dumps({'ok': out}))
`;

/** What the server answers, by the path asked for (the request line's second word). */
const ANSWERS: Readonly<Record<string, string>> = {
  '/reason-control': 'HTTP/1.1 200 O\u0001K\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
  '/reason-delete': 'HTTP/1.1 200 O\u007fK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
  '/status-99': 'HTTP/1.1 099 Early\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
  '/status-0': 'HTTP/1.1 000 None\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
  '/plain': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
};

let server: Server;
let port = 0;

const said = (pattern: RegExp) => (r: Ran): void => assert.match((r.output as { ok?: string }).ok ?? '', pattern, r.stdout + r.stderr);
/** The run ended as runs do: its record has an end. */
const recorded = async (r: Ran, sc: Scratch): Promise<void> => {
  said(/^status 502$/)(r);
  const last = (await readFile(join(sc.work, 'audit.jsonl'), 'utf8')).trim().split('\n').at(-1) as string;
  assert.equal((JSON.parse(last) as { event?: string }).event, 'end', last);
};
const fetching = (path: string) => (sc: Scratch): Promise<Ran> => runTarget('./bundles/fetch', { url: `http://127.0.0.1:${port}${path}` }, { cwd: sc.work, policy: POLICY, sandbox: 'bwrap', audit: join(sc.work, 'audit.jsonl') });

const rows: Attack[] = [
  { what: 'a reason phrase holding a control character (U+0001)', code: null, exit: 0, attempt: fetching('/reason-control'), check: recorded },
  { what: 'a reason phrase holding DEL (U+007F)', code: null, exit: 0, attempt: fetching('/reason-delete'), check: recorded },
  { what: 'a status code under 100 (099)', code: null, exit: 0, attempt: fetching('/status-99'), check: recorded },
  { what: 'the status code 000', code: null, exit: 0, attempt: fetching('/status-0'), check: recorded },
  { what: 'a plain answer, passed on as before', code: null, exit: 0, attempt: fetching('/plain'), check: said(/^status 200$/) },
];

describe('egress answers: what a granted server answers cannot crash skillctl', () => {
  const s = scratch('skillctl-attack-egress-answers-');
  before(async () => {
    server = createServer((c: Socket) => {
      c.on('error', () => c.destroy());
      c.once('data', (d: Buffer) => c.end(Buffer.from(ANSWERS[d.toString('latin1').split(' ')[1] ?? ''] ?? ANSWERS['/plain'] as string, 'latin1')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    await writeBundle(join(s.work, 'bundles', 'fetch'), {
      entrypoints: [entry({ runtime: 'python', runtime_version: PYTHON_VERSION, command: 'python3 fetch.py', output_schema: OK, requested_permissions: { 'net.http': ['http://*'] } })],
      files: { 'fetch.py': FETCH_PY },
    });
    await writeFile(join(s.work, POLICY), ['version: 1', 'permissions:', '  fs.read: [.]', '  net.http:', `    - http://127.0.0.1:${port}`, ''].join('\n'));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  attackRows(rows, s);
});
