// The guess of a wasm run's thread limits made before the bundle is read (expected-thread.ts):
// the limits the run itself will give, from skill.json and the policy; no guess (undefined)
// for anything else, and never a wait on something that is not a plain file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { DEFAULT_LIMITS } from '../../../../src/core/manifest/limits.js';
import { defaultPolicy } from '../../../../src/core/policy/default.js';
import { builtinThreadLimits } from '../../../../src/core/run/thread-limits.js';
import { earlyWasmThreadGuess, expectedWasmThreadLimits, wasmThreadLimitsOf } from '../../../../src/core/run/wasm/expected-thread.js';
import { entry, writeBundle } from '../../../helpers/bundles.js';
import { policyFrom } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/tmp.js';

describe('expectedWasmThreadLimits', () => {
  const tmp = tempDir('skillctl-wasm-guess-');
  let root: string;
  const dir = (name: string): string => join(root, name);
  const wasmEntry = (over: Record<string, unknown> = {}): Record<string, unknown> => entry({ runtime: 'wasm', command: 'skill.wasm', ...over });

  before(() => {
    root = realpathSync(tmp);
  });

  it('a wasm entrypoint: its max_memory within the policy cap, as the run grants it', async () => {
    await writeBundle(dir('wasm'), { entrypoints: [wasmEntry({ runtime_limits: { max_memory: 48 } })] });
    assert.deepEqual(await expectedWasmThreadLimits(dir('wasm'), undefined, defaultPolicy(root)), builtinThreadLimits(48));
    const capped = policyFrom({ permissions: {}, limits: { max_memory: '40MiB' } }, root);
    assert.deepEqual(await expectedWasmThreadLimits(dir('wasm'), undefined, capped), builtinThreadLimits(40));
  });

  it('the entrypoint the run selects: --entrypoint names one, else the first', async () => {
    await writeBundle(dir('two'), { entrypoints: [entry({ entrypoint_id: 'node', runtime: 'node', command: 'node main.js' }), wasmEntry({ entrypoint_id: 'wasm' })] });
    assert.equal(await expectedWasmThreadLimits(dir('two'), 'node', defaultPolicy(root)), undefined);
    assert.deepEqual(await expectedWasmThreadLimits(dir('two'), 'wasm', defaultPolicy(root)), builtinThreadLimits(DEFAULT_LIMITS.memoryMiB));
    assert.equal(await expectedWasmThreadLimits(dir('two'), 'missing', defaultPolicy(root)), undefined);
  });

  it('no guess for a bundle that is not a wasm skill.json, or for a manifest that is not JSON', async () => {
    await writeBundle(dir('builtin'), { entrypoints: [entry()] });
    assert.equal(await expectedWasmThreadLimits(dir('builtin'), undefined, defaultPolicy(root)), undefined);
    await mkdir(dir('yaml'));
    await writeFile(join(dir('yaml'), 'skill.yaml'), 'schema_version: 1\n');
    assert.equal(await expectedWasmThreadLimits(dir('yaml'), undefined, defaultPolicy(root)), undefined);
    await mkdir(dir('garbage'));
    await writeFile(join(dir('garbage'), 'skill.json'), '{"entrypoints": 7');
    assert.equal(await expectedWasmThreadLimits(dir('garbage'), undefined, defaultPolicy(root)), undefined);
    await mkdir(dir('odd'));
    await writeFile(join(dir('odd'), 'skill.json'), '{"entrypoints": [{"entrypoint_id": "main", "runtime": "wasm", "runtime_limits": null}]}');
    assert.equal(await expectedWasmThreadLimits(dir('odd'), undefined, defaultPolicy(root)), undefined);
    assert.equal(await expectedWasmThreadLimits(dir('absent'), undefined, defaultPolicy(root)), undefined);
  });

  it('a skill.json that is a symlink or a FIFO gets no guess, and is not waited on', async () => {
    await writeBundle(dir('target'), { entrypoints: [wasmEntry()] });
    await mkdir(dir('linked'));
    await symlink(join(dir('target'), 'skill.json'), join(dir('linked'), 'skill.json'));
    assert.equal(await expectedWasmThreadLimits(dir('linked'), undefined, defaultPolicy(root)), undefined);
    await mkdir(dir('fifo'));
    execFileSync('mkfifo', [join(dir('fifo'), 'skill.json')]);
    assert.equal(await expectedWasmThreadLimits(dir('fifo'), undefined, defaultPolicy(root)), undefined);
  });

  it('the start-up wing’s guess (default policy, read synchronously) is the run’s guess under the default policy', async () => {
    await writeBundle(dir('early-48'), { entrypoints: [wasmEntry({ runtime_limits: { max_memory: 48 } })] });
    await writeBundle(dir('early-two'), { entrypoints: [entry({ entrypoint_id: 'node', runtime: 'node', command: 'node main.js' }), wasmEntry({ entrypoint_id: 'wasm' })] });
    await writeBundle(dir('early-main'), { entrypoints: [entry({ entrypoint_id: 'other', runtime: 'node', command: 'node main.js' }), wasmEntry({ entrypoint_id: 'main', runtime_limits: { max_memory: '80MiB' } })] });
    const cases: [string, string | undefined][] = [
      ['early-48', undefined],
      ['early-two', undefined],
      ['early-two', 'node'],
      ['early-two', 'wasm'],
      ['early-two', 'missing'],
      ['early-main', undefined],
      ['builtin', undefined],
      ['yaml', undefined],
      ['garbage', undefined],
      ['odd', undefined],
      ['absent', undefined],
      ['linked', undefined],
      ['fifo', undefined],
    ];
    for (const [name, ep] of cases) {
      const run = await expectedWasmThreadLimits(dir(name), ep, defaultPolicy(root));
      assert.deepEqual(earlyWasmThreadGuess(dir(name), ep)?.limits, run, `${name} ${ep ?? ''}`);
    }
    assert.deepEqual(earlyWasmThreadGuess(dir('early-main'), undefined)?.limits, builtinThreadLimits(80));
  });

  it('the run’s guess from the bytes the start-up wing read: the policy in force caps it', async () => {
    const early = earlyWasmThreadGuess(dir('early-48'), undefined);
    assert.ok(early !== undefined);
    assert.deepEqual(wasmThreadLimitsOf(early.manifest, undefined, policyFrom({ permissions: {}, limits: { max_memory: '40MiB' } }, root)), builtinThreadLimits(40));
    assert.equal(wasmThreadLimitsOf(new TextEncoder().encode('{"entrypoints": 7'), undefined, defaultPolicy(root)), undefined);
  });
});
