// `skillctl run` of a wasm bundle by path starts the module's thread before it reads the bundle
// (src/cli/wasm-spare.ts), the start-up wing even before the CLI loads, under the default policy
// (src/entry/wasm-early.ts): the run must post its job to that thread when its limits are the ones
// guessed, start a thread of its own when there was no guess or another policy is in force, and
// never wait on a spare it did not use. A preload records each thread the process starts: a spare has no job (workerData) yet.
import assert from 'node:assert/strict';
import { realpathSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { compileWat } from '../helpers/wat.js';

interface RunDoc {
  readonly status: string;
  readonly output: unknown;
  readonly diagnostics: readonly { readonly code: string; readonly severity: string }[];
}

const PRELOAD = `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const fs = require('node:fs');
  const Base = wt.Worker;
  wt.Worker = class extends Base {
    constructor(file, opts) {
      super(file, opts);
      fs.appendFileSync(process.env.SKILLCTL_TEST_THREADS, (opts && opts.workerData !== undefined ? 'job' : 'spare') + '\\n');
    }
  };
}
`;

const SCHEMAS = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };

describe('skillctl run (wasm): the module’s thread started early', () => {
  const tmp = tempDir('skillctl-cli-wasm-spare-');
  let project: string;
  let log: string;
  let env: Record<string, string>;
  const threads = (): string[] => {
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    writeFileSync(log, '');
    return lines;
  };

  async function bundle(name: string, over: Record<string, unknown> = {}): Promise<void> {
    const dir = join(project, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat('echo-input'));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', ...SCHEMAS, ...over })] });
  }

  before(async () => {
    project = realpathSync(tmp);
    await mkdir(join(project, '.git'));
    log = join(project, 'threads.log');
    writeFileSync(log, '');
    writeFileSync(join(project, 'preload.cjs'), PRELOAD);
    env = { NODE_OPTIONS: `--require ${join(project, 'preload.cjs')}`, SKILLCTL_TEST_THREADS: log };
    await bundle('echo', { runtime_limits: { max_memory: 64 } });
  });

  it('is the one thread the run starts, and runs the module', () => {
    const r = skillctl(['run', './echo', '--input', '-', '--json', '--no-audit'], { cwd: project, input: '{"path":"p"}', env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json<RunDoc>(r).output, { path: 'p' });
    assert.deepEqual(threads(), ['spare']);
  });

  it('is started again with the caps of the policy in force, and taken, when they are not the default policy’s', async () => {
    await writeFile(join(project, 'policy.yaml'), 'version: 1\npermissions: {}\nlimits:\n  max_memory: 40MiB\n');
    const r = skillctl(['run', './echo', '--input', '-', '--json', '--no-audit', '--policy', 'policy.yaml'], { cwd: project, input: '{"path":"q"}', env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json<RunDoc>(r).output, { path: 'q' });
    assert.ok(json<RunDoc>(r).diagnostics.some((d) => d.code === 'POLICY_LIMIT_CAPPED'));
    // The start-up wing's (64 MiB, the default policy), stopped; then the run's own (40 MiB).
    assert.deepEqual(threads(), ['spare', 'spare']);
  });

  it('is the start-up wing’s when the policy in force caps nothing the manifest asks', async () => {
    await writeFile(join(project, 'roomy.yaml'), 'version: 1\npermissions: {}\nlimits:\n  max_memory: 512MiB\n');
    const r = skillctl(['run', './echo', '--input', '-', '--json', '--no-audit', '--policy', 'roomy.yaml'], { cwd: project, input: '{"path":"r"}', env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json<RunDoc>(r).output, { path: 'r' });
    assert.deepEqual(threads(), ['spare']);
  });

  it('is not started for a bundle whose manifest is not skill.json: the run starts its own', async () => {
    const dir = join(project, 'yaml');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat('echo-input'));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', ...SCHEMAS })] });
    // JSON is YAML: the same manifest as skill.yaml, which the guess does not parse.
    await rename(join(dir, 'skill.json'), join(dir, 'skill.yaml'));
    const r = skillctl(['run', './yaml', '--input', '-', '--json', '--no-audit'], { cwd: project, input: '{"path":"y"}', env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(threads(), ['job']);
  });

  it('does not keep a refused run waiting', () => {
    const r = skillctl(['run', './echo', '--input', '-', '--json', '--no-audit'], { cwd: project, input: '{"path":', env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.deepEqual(threads(), ['spare']);
  });

  it('does not keep a command refused before the run waiting', () => {
    const r = skillctl(['run', './echo', '--retries', '9', '--no-audit'], { cwd: project, env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--retries 9: a whole number from 0 to 3/);
    assert.deepEqual(threads(), ['spare'], 'the start-up wing’s, never taken');
  });
});
