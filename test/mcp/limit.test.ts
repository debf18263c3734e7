import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limitConcurrency } from '../../src/mcp/limit.js';

describe('limitConcurrency', () => {
  it('runs at most `limit` calls at once, the rest in arrival order, each answered', async () => {
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const work = limitConcurrency(3, async (i: number) => {
      started.push(i);
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return i * 2;
    });
    assert.deepEqual(await Promise.all(Array.from({ length: 20 }, (_, i) => work(i))), Array.from({ length: 20 }, (_, i) => i * 2));
    assert.equal(peak, 3);
    assert.deepEqual(started, Array.from({ length: 20 }, (_, i) => i));
  });

  it('a call that fails gives its place to the next', async () => {
    const work = limitConcurrency(1, async (fail: boolean) => {
      if (fail) throw new Error('boom');
      return 'ok';
    });
    const [a, b] = await Promise.allSettled([work(true), work(false)]);
    assert.equal(a?.status, 'rejected');
    assert.deepEqual(b, { status: 'fulfilled', value: 'ok' });
  });
});
