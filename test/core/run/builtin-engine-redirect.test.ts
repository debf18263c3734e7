// The engine asks the gate about every hop of a built-in's request: a redirect to an address or
// port the policy does not grant is refused, recorded as the denial, and the run exits 3.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BuiltinSkill } from '../../../src/core/run/index.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { engine, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';

const OUTPUT = { type: 'object', required: ['ok'], additionalProperties: false, properties: { ok: { type: 'string' } } };

function skill(id: string, run: BuiltinSkill['run']): BuiltinSkill {
  return { id, run };
}

/** Fetches a URL over http, following redirects only after asking the gate about each hop. */
const fetcher = skill('test.fetch', async (input, ctx) => {
  let url = (input as { path: string }).path;
  for (let hop = 0; hop < 5; hop++) {
    const d = await ctx.policy.checkUrl(url);
    if (!d.allowed) return { status: 'denied', decision: d, operation: `fetch hop ${hop}` };
    const res = await new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
      get(d.resolved, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, ...(r.headers.location !== undefined ? { location: r.headers.location } : {}), body }));
      }).on('error', reject);
    });
    if (res.status >= 300 && res.status < 400 && res.location !== undefined) {
      url = new URL(res.location, url).href;
      continue;
    }
    return { status: 'ok', output: { ok: res.body } };
  }
  return { status: 'error', error: { code: 'TOO_MANY_REDIRECTS', message: 'too many redirects' } };
});

const ALL = [fetcher];

describe('run engine: a built-in fetching through redirects', () => {
  const tmp = tempDir('skillctl-engine-redirect-');
  let root: string;
  let server: Server;
  let port: number;
  const bundle = (name: string): string => join(root, 'bundles', name);

  before(async () => {
    root = realpathSync(tmp);
    server = createServer((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/hop' }).end();
      else if (req.url === '/hop') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (req.url === '/other-port') res.writeHead(301, { location: `http://127.0.0.1:${port + 1}/x` }).end();
      else res.writeHead(200).end('landed');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    await writeBundle(bundle('test.fetch'), { skill_id: 'test.fetch', entrypoints: [entry({ command: 'builtin:test.fetch', output_schema: OUTPUT, requested_permissions: { 'net.http': [`http://127.0.0.1:${port}/`] } })] });
  });
  after(() => server.close());

  it('refuses a redirect to an address the policy does not grant (every hop is checked)', async () => {
    const policy = policyFrom({ permissions: { 'net.http': [`http://127.0.0.1:${port}/`] } }, root);
    const direct = await engine({ cwd: root, target: bundle('test.fetch'), input: { path: `http://127.0.0.1:${port}/plain` }, builtins: ALL, policy });
    assert.deepEqual(direct.output, { ok: 'landed' });
    assert.deepEqual(direct.record.policy.capabilities.used, [`net.http:http://127.0.0.1:${port}/`]);
    for (const start of ['/start', '/other-port']) {
      const r = await engine({ cwd: root, target: bundle('test.fetch'), input: { path: `http://127.0.0.1:${port}${start}` }, builtins: ALL, policy });
      assert.equal(r.status, 'denied', start);
      assert.equal(r.exitCode, 3);
      assert.deepEqual(r.record.policy.denials.map((d) => d.code), ['POLICY_URL_DENIED']);
    }
  });
});
