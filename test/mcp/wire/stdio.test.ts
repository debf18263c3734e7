// The stdio transport's writes when the host reads its answers slowly: every reply is written in
// order and each send settles once the output drains, with one wait for all of them (a listener
// each would pass node's limit of 10 and print a MaxListenersExceededWarning on stderr).
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { LineTransport } from '../../../src/mcp/wire/stdio.js';

describe('LineTransport: replies to a slow reader', () => {
  it('50 replies over a stream that is always full: all written in order, all settled after it drains, no warning', async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    // A stream that takes one chunk at a time and finishes it only when told: every write past the first reports it full.
    const out = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        release = done;
      },
    });
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const t = new LineTransport(new PassThrough(), out);
      await t.start();
      let settled = 0;
      const sends = Array.from({ length: 50 }, (_, i) => t.send({ jsonrpc: '2.0', id: i, result: {} }).then(() => void settled++));
      assert.ok(out.listenerCount('drain') <= 1, `${out.listenerCount('drain')} drain listeners`);
      assert.equal(settled, 0);
      while (written.length < 50 || release !== undefined) {
        const r = release;
        release = undefined;
        r?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(sends);
      assert.equal(settled, 50);
      assert.deepEqual(written.map((w) => (JSON.parse(w) as { id: number }).id), Array.from({ length: 50 }, (_, i) => i));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings.map((w) => w.name), []);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
