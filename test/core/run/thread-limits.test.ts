// The start-up wing guesses a built-in's or a wasm module's thread limits from an unvalidated
// manifest (src/core/run/thread-limits.ts): the entrypoint select.ts would pick, on the runtime
// asked for, or no guess at all; never a throw, whatever the manifest holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../../src/core/manifest/limits.js';
import { builtinThreadLimits, guessThreadLimits } from '../../../src/core/run/thread-limits.js';

const ep = (id: string, runtime: string, limits: unknown = { max_memory: 96 }): Record<string, unknown> => ({ entrypoint_id: id, runtime, runtime_limits: limits });

describe('guessThreadLimits', () => {
  it('gives the declared memory of the entrypoint a run selects, never below the heap V8 needs', () => {
    assert.deepEqual(guessThreadLimits({ entrypoints: [ep('only', 'builtin')] }, undefined, 'builtin'), builtinThreadLimits(96));
    assert.deepEqual(guessThreadLimits({ entrypoints: [ep('a', 'wasm', { max_memory: '2GiB' }), ep('main', 'wasm')] }, undefined, 'wasm'), builtinThreadLimits(96));
    assert.deepEqual(guessThreadLimits({ entrypoints: [ep('a', 'wasm', { max_memory: '2GiB' }), ep('main', 'wasm')] }, 'a', 'wasm'), builtinThreadLimits(2048));
    assert.deepEqual(guessThreadLimits({ entrypoints: [ep('main', 'builtin', {})] }, undefined, 'builtin'), builtinThreadLimits(DEFAULT_LIMITS.memoryMiB));
    assert.deepEqual(guessThreadLimits({ entrypoints: [ep('main', 'builtin', { max_memory: 4 })] }, undefined, 'builtin'), { maxOldGenerationSizeMb: 32, stackSizeMb: 4 });
  });

  it('gives none for another runtime, an entrypoint the run would not select, or a manifest of another shape', () => {
    for (const [manifest, id] of [
      [{ entrypoints: [ep('main', 'node')] }, undefined],
      [{ entrypoints: [ep('a', 'builtin'), ep('b', 'builtin')] }, undefined],
      [{ entrypoints: [ep('main', 'builtin')] }, 'other'],
      [{ entrypoints: [ep('main', 'builtin', null)] }, undefined],
      [{ entrypoints: [ep('main', 'builtin', 'lots')] }, undefined],
      [{ entrypoints: [null] }, undefined],
      [{ entrypoints: 'main' }, undefined],
      [{}, undefined],
      [null, undefined],
      ['skill', undefined],
    ] as const) {
      assert.equal(guessThreadLimits(manifest, id, 'builtin'), undefined, JSON.stringify(manifest));
    }
  });
});
