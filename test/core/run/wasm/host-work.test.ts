// Host work a module's hostcalls start does not outlive its run (src/core/run/wasm/host-work.ts,
// runtimes/wasm.ts): at the deadline an HTTP exchange to a server that never answers is cut, a
// write already renaming its file into place is waited for, and one not yet there backs out, so
// that nothing changes after the run's end. The file layer is slowed through runWasm's `files`
// seam, and each step is released by the test: the order is the test's, not the clock's.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Socket } from 'node:net';
import { checkedFs, createPolicyGate, type CheckedDir, type CheckedFs } from '../../../../src/core/policy/index.js';
import { checkWasmModule, runWasm, type WasmJob, type WasmLimits } from '../../../../src/core/run/runtimes/wasm.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { serve } from '../../../helpers/network.js';
import { engine, errorCodes, policyFrom } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';
import { compileWat } from '../../../helpers/wat.js';

/** A checked file layer whose `step` of every directory waits for `release`, after saying so. */
function slowed(base: CheckedFs, step: 'rename' | 'writeTemp', events: string[]): { files: CheckedFs; reached: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reach = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const wrap = (d: CheckedDir): CheckedDir =>
    new Proxy(d, {
      get(target, prop) {
        const v = Reflect.get(target, prop) as unknown;
        if (prop !== step) return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        return async (...args: unknown[]) => {
          events.push(`${step} begins`);
          reach();
          await released;
          const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          events.push(`${step} ends`);
          return r;
        };
      },
    });
  return {
    files: {
      openFile: (path) => base.openFile(path),
      openDir: async (path, scope) => {
        const d = await base.openDir(path, scope);
        return 'kind' in d ? d : wrap(d);
      },
    },
    reached,
    release: () => release(),
  };
}

describe('host work and the run’s end', () => {
  const tmp = tempDir('skillctl-wasm-hostwork-');
  let root: string;
  let out: string;

  before(async () => {
    root = realpathSync(tmp);
    out = join(root, 'out');
    await mkdir(out);
  });

  /**
   * write-file.wat writing `name` in out/, its file layer slowed at `step`: the run is started,
   * and stopped (as at its deadline) once the write has reached that step; then the step goes on.
   */
  async function stoppedWhile(step: 'rename' | 'writeTemp', name: string): Promise<{ events: string[]; outcome: string }> {
    const events: string[] = [];
    const gate = createPolicyGate({ fsRead: [], fsWrite: [out], netHttp: [], exec: [], env: [] }, { cwd: root, pathEnv: '' });
    const slow = slowed(checkedFs(gate, root), step, events);
    const limits: WasmLimits = { timeoutMs: 60_000, maxOutputBytes: 65536, memoryBytes: 8 * 1024 * 1024, fuel: 10_000_000 };
    const module = checkWasmModule({ bytes: await compileWat('write-file'), digest: 'sha256:0', entry: 'run' }, limits, false);
    assert.ok(!('refused' in module));
    const job: WasmJob = { module, input: Buffer.from(JSON.stringify(join(out, name))), limits, gate, cwd: root, heapMiB: 64, userAgent: 'test', io: 'json', files: slow.files };
    const stop = new AbortController();
    const run = runWasm(job, stop.signal).then((a) => {
      events.push('run ends');
      return a;
    });
    await slow.reached;
    events.push('stopped');
    stop.abort();
    // The run is over for the module, but it does not end while the step is held.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, [`${step} begins`, 'stopped']);
    slow.release();
    const a = await run;
    return { events, outcome: a.outcome.kind === 'failed' ? a.outcome.status : a.outcome.kind };
  }

  it('a write already renaming its file into place when the run is stopped: the run ends after it', async () => {
    const r = await stoppedWhile('rename', 'committing.json');
    assert.deepEqual(r.events, ['rename begins', 'stopped', 'rename ends', 'run ends']);
    assert.equal(r.outcome, 'interrupted');
    assert.equal(await readFile(join(out, 'committing.json'), 'utf8'), '{"ok":true}');
  });

  it('a write not yet renamed into place when the run is stopped backs out: nothing lands after the end', async () => {
    const r = await stoppedWhile('writeTemp', 'backed-out.json');
    assert.deepEqual(r.events, ['writeTemp begins', 'stopped', 'writeTemp ends', 'run ends']);
    const after = await readdir(out);
    assert.ok(!after.includes('backed-out.json'), 'the file was never renamed into place');
    assert.deepEqual(
      after.filter((n) => n !== 'committing.json'),
      [],
      'its temporary file was removed before the end',
    );
  });

  it('http_fetch to a server that never answers is cut at the deadline, not 10 s later', { timeout: 20_000 }, async () => {
    const sockets: Socket[] = [];
    const server = await serve((req) => sockets.push(req.socket));
    try {
      const dir = join(root, 'fetch');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'skill.wasm'), await compileWat('http-fetch'));
      const url = `${server.base}/never`;
      await writeBundle(dir, {
        entrypoints: [
          entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {}, runtime_limits: { max_execution_time: '2s' }, requested_permissions: { 'net.http': [`${server.base}/`] } }),
        ],
      });
      const r = await engine({ cwd: root, target: dir, input: url, policy: policyFrom({ permissions: { 'net.http': [`${server.base}/`] } }, root) });
      assert.equal(r.status, 'timeout', JSON.stringify(errorCodes(r)));
      assert.deepEqual(server.seen, ['/never']);
      // The exchange was cut when the run ended: the server sees its connection close now, well
      // before the hostcall's own 10 s timeout would have closed it.
      const socket = sockets[0] as Socket;
      const closed = socket.destroyed || socket.closed ? Promise.resolve() : new Promise<void>((resolve) => socket.once('close', () => resolve()));
      let guard: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((_, reject) => (guard = setTimeout(() => reject(new Error('the exchange outlived the run')), 3000)))]);
      clearTimeout(guard);
    } finally {
      await server.close();
    }
  });
});
