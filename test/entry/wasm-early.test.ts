// `skillctl run <dir>` of a wasm skill starts the module's thread before the CLI loads
// (src/entry/wasm-early.ts), under the default policy: which command lines get one, and that it
// is handed over once, only for the limits it was started with. What a run does with it is in
// test/cli/wasm-spare.test.ts.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { builtinThreadLimits } from '../../src/core/run/thread-limits.js';
import { earlyRunTarget } from '../../src/entry/run-argv.js';
import { startWasmThread, takeEarlyWasmThread } from '../../src/entry/wasm-early.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { projects } from '../helpers/project.js';
import { compileWat } from '../helpers/wat.js';

const SCHEMAS = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };

async function wasmBundle(dir: string, over: Record<string, unknown> = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'skill.wasm'), await compileWat('echo-input'));
  await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', runtime_limits: { max_memory: 64 }, ...SCHEMAS, ...over })] });
}

describe('earlyRunTarget: the command lines that get an early thread', () => {
  it('a bundle directory, with the run’s options and the global flags around it', () => {
    assert.deepEqual(earlyRunTarget(['run', './skill']), { dir: resolve('./skill') });
    assert.deepEqual(earlyRunTarget(['run', '--input', 'in.json', 'a/b', '--no-audit', '--json', '--entrypoint', 'main', '-q']), { dir: resolve('a/b'), entrypoint: 'main' });
    assert.deepEqual(earlyRunTarget(['run', '/abs/dir', '--policy', 'p.yaml', '--audit', 'log', '--retries', '1', '--sandbox', 'none', '--contracts', 'c', '--check-determinism']), { dir: '/abs/dir' });
  });

  it('a skill of the default bundle, by its id', () => {
    assert.deepEqual(earlyRunTarget(['run', 'fs.read_text']), { skillId: 'fs.read_text' });
    assert.deepEqual(earlyRunTarget(['run', '--input', '-', 'shell.exec_safe', '--entrypoint', 'main', '--json']), { skillId: 'shell.exec_safe', entrypoint: 'main' });
  });

  it('none for another skill id, an archive, an OCI reference, another command or a line it cannot read plainly', () => {
    for (const argv of [
      ['run', 'acme.tool'],
      ['run', 'fs.read_text.extra'],
      ['run', 'dist/x-1.0.0.tgz'],
      ['run', 'oci://example.test/x@sha256:00'],
      ['validate', './skill'],
      ['--json', 'run', './skill'],
      ['run', './skill', './other'],
      ['run', 'fs.read_text', 'fs.read_tree'],
      ['run', './skill', '--unknown'],
      ['run', 'fs.read_text', '--unknown'],
      ['run', './skill', '--input=in.json'],
      ['run', './skill', '--input'],
      ['run', '--list'],
      ['run'],
    ]) {
      assert.equal(earlyRunTarget(argv), undefined, argv.join(' '));
    }
  });
});

describe('the early thread of a wasm run', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('is handed over once, and only for the limits it was started with', async () => {
    const root = await project();
    await wasmBundle(join(root, 'w'));
    startWasmThread({ dir: join(root, 'w') });
    const early = takeEarlyWasmThread();
    assert.ok(early !== undefined);
    assert.equal(takeEarlyWasmThread(), undefined, 'handed over once');
    assert.equal(early.dir, join(root, 'w'));
    const thread = early.spare.take(builtinThreadLimits(64));
    assert.ok(thread !== undefined);
    await thread.terminate();

    startWasmThread({ dir: join(root, 'w') });
    const other = takeEarlyWasmThread();
    assert.ok(other !== undefined);
    assert.equal(other.spare.take(builtinThreadLimits(32)), undefined, 'other limits: stopped, not handed over');
  });

  it('is not started for a bundle that is not a wasm skill', async () => {
    const root = await project();
    await writeBundle(join(root, 'b'), { entrypoints: [entry()] });
    startWasmThread({ dir: join(root, 'b') });
    assert.equal(takeEarlyWasmThread(), undefined);
    startWasmThread({ dir: join(root, 'missing') });
    assert.equal(takeEarlyWasmThread(), undefined);
  });
});
