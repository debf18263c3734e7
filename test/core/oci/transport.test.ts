// A request given up (its AbortSignal aborted) ends at once wherever it waits: in the back-off
// before a retry (a registry answering 503 with Retry-After: 10) and while a Bearer token is
// fetched (a token service that never answers). Either way it rejects with the signal's reason,
// clears its timer and closes its connection: nothing is left to keep the process alive. The
// overall deadline gives requests up the same way, the reading of a body included, and lets the
// requests that tidy up after it through.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { isSkillctlError, SkillctlError } from '../../../src/core/errors.js';
import { NO_CREDENTIALS } from '../../../src/core/oci/credentials.js';
import { Deadline } from '../../../src/core/oci/deadline.js';
import { Transport } from '../../../src/core/oci/transport.js';

/** Well before the 10 s Retry-After and the 30 s idle timer the tests set. */
const PROMPT_MS = 5_000;

/** Timers that keep the process alive (unreferenced ones are not listed). */
const liveTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

interface Registry {
  readonly host: string;
  readonly seen: string[];
  close(): Promise<void>;
}

async function registry(route: (req: IncomingMessage, res: ServerResponse, port: number) => void): Promise<Registry> {
  const seen: string[] = [];
  let port = 0;
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    route(req, res, port);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    host: `127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves once `seen` has a path matching `re` (or fails the test after PROMPT_MS). */
async function until(seen: readonly string[], re: RegExp): Promise<void> {
  for (let waited = 0; !seen.some((s) => re.test(s)); waited += 10) {
    if (waited > PROMPT_MS) assert.fail(`no request to ${String(re)}: ${seen.join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a request given up', () => {
  let reg: Registry | undefined;
  afterEach(async () => {
    await reg?.close();
    reg = undefined;
  });

  /**
   * GETs a manifest with a signal, aborts it once the registry saw a request to `when` (and
   * `settle` ms more), and checks that it rejected with the signal's own reason, promptly, with
   * no timer left that keeps the process alive.
   */
  async function giveUp(host: string, when: RegExp, settle = 0): Promise<void> {
    const timers = liveTimers();
    const t = new Transport(host, '127.0.0.1', { credentials: NO_CREDENTIALS, plainHttp: true, idleMs: 30_000 });
    const ctl = new AbortController();
    const reason = new SkillctlError('OCI_UNREACHABLE', 'given up');
    const started = Date.now();
    const settled = t.request('GET', '/v2/skills/x/manifests/1', { what: 'manifest skills/x:1', signal: ctl.signal }).then(
      () => assert.fail('the request succeeded'),
      (e: unknown) => e,
    );
    await until((reg as Registry).seen, when);
    await new Promise((r) => setTimeout(r, settle));
    ctl.abort(reason);
    assert.equal(await settled, reason);
    assert.ok(Date.now() - started < PROMPT_MS, `the request took ${Date.now() - started} ms`);
    assert.equal(liveTimers(), timers, 'a timer still keeps the process alive');
  }

  it('during the back-off of a 503 with Retry-After: 10 rejects at once with the signal\'s reason, its timer cleared', async () => {
    reg = await registry((_req, res) => {
      res.writeHead(503, { 'retry-after': '10', 'content-length': '0' });
      res.end();
    });
    // 100 ms after the request: the 503 has been read and the back-off begun.
    await giveUp(reg.host, /manifests/, 100);
    assert.equal(reg.seen.length, 1, 'nothing was retried after the abort');
  });

  it('while a token service that never answers is asked rejects at once with the signal\'s reason, the token request closed', async () => {
    let tokenClosed: Promise<void> | undefined;
    reg = await registry((req, res, port) => {
      if ((req.url ?? '').startsWith('/token')) {
        // Never answered: only the client can end this request.
        tokenClosed = new Promise((resolve) => res.on('close', resolve));
        return;
      }
      res.writeHead(401, { 'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="test",scope="repository:skills/x:pull"`, 'content-length': '0' });
      res.end();
    });
    await giveUp(reg.host, /^\/token/);
    await Promise.race([tokenClosed, new Promise((_r, fail) => setTimeout(() => fail(new Error('the token request is still open')), PROMPT_MS).unref())]);
  });

  it('past the deadline: a body being read is cut with OCI_UNREACHABLE naming the timeout, later requests fail at once, a cleanup request still goes', async () => {
    reg = await registry((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(204);
        res.end();
        return;
      }
      // A byte every 100 ms of a promised kilobyte: never idle, never done.
      res.writeHead(200, { 'content-length': '1024' });
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    const t = new Transport(reg.host, '127.0.0.1', { credentials: NO_CREDENTIALS, plainHttp: true, idleMs: 30_000, deadline: new Deadline(0.5) });
    const started = Date.now();
    const reply = await t.request('GET', '/v2/skills/x/blobs/sha256:00', { what: 'blob sha256:00' });
    const cut = await (async () => {
      for (let piece = await reply.response.body.read(); piece !== undefined; piece = await reply.response.body.read()) reply.touch();
    })().then(
      () => assert.fail('the body was read to its end'),
      (e: unknown) => e,
    );
    reply.done();
    assert.ok(isSkillctlError(cut) && cut.code === 'OCI_UNREACHABLE', String(cut));
    assert.equal(cut.message, `${reg.host}: blob sha256:00: not finished within the 0.5 s timeout`);
    assert.ok(Date.now() - started < PROMPT_MS, `the read took ${Date.now() - started} ms`);
    const seen = reg.seen.length;
    await assert.rejects(t.request('GET', '/v2/skills/x/manifests/1', { what: 'manifest skills/x:1' }), { code: 'OCI_UNREACHABLE', message: /manifest skills\/x:1: not finished within the 0\.5 s timeout/ });
    assert.equal(reg.seen.length, seen, 'a request past the deadline was sent');
    const cleanup = await t.request('DELETE', '/v2/skills/x/blobs/uploads/1', { what: 'cancelling the upload', cleanup: true });
    cleanup.done();
    assert.equal(cleanup.response.status, 204);
  });
});

describe('a token service answering a token a header cannot carry', () => {
  let reg: Registry | undefined;
  afterEach(async () => {
    await reg?.close();
    reg = undefined;
  });

  // A token is sent back in the Authorization header: one with a control character (or a
  // character past U+00FF) could not be, and the failure to set the header ended the request as
  // OCI_UNREACHABLE, "the registry cannot be reached" (until the stop of 2026-12-01).
  for (const [label, token] of [['a control character', 'abc\u0001def'], ['DEL', 'abc\u007fdef'], ['a character past U+00FF', 'abc\u2028def'], ['a line break', 'abc\r\nX-Injected: 1']] as const) {
    it(`refuses a token with ${label}: OCI_AUTH_DENIED, and the registry is not asked again`, async () => {
      reg = await registry((req, res, port) => {
        if ((req.url ?? '').startsWith('/token')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ token }));
          return;
        }
        res.writeHead(401, { 'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="test",scope="repository:skills/x:pull"`, 'content-length': '0' });
        res.end();
      });
      const t = new Transport(reg.host, '127.0.0.1', { credentials: NO_CREDENTIALS, plainHttp: true, idleMs: 30_000 });
      await assert.rejects(t.request('GET', '/v2/skills/x/manifests/1', { what: 'manifest skills/x:1' }), {
        code: 'OCI_AUTH_DENIED',
        message: `${reg.host}: manifest skills/x:1: the token service at ${reg.host} answered a token an HTTP header cannot carry (a control character, or one past U+00FF)`,
      });
      assert.deepEqual(reg.seen.map((u) => u.replace(/\?.*/, '')), ['/v2/skills/x/manifests/1', '/token']);
    });
  }
});
