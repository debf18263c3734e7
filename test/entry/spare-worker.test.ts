// A run of a shipped built-in starts its thread early, in the start-up wing before the CLI loads
// (src/entry/builtin-early.ts, under the default policy), else as the run begins
// (src/entry/spare-worker.ts): the run must take that thread when its grant's limits are the ones
// guessed, start a thread of its own when they are not, and never wait on a spare it did not use.
import assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { editManifest, projects } from '../helpers/project.js';
import { workerTrace } from '../helpers/worker-trace.js';

interface RunJson {
  readonly status: string;
  readonly output?: { readonly text?: string };
  readonly diagnostics: readonly { readonly code: string }[];
}

describe('the spare thread of a built-in run', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  const setUp = async (): Promise<string> => {
    const root = await project();
    await writeFile(join(root, 'note.txt'), 'spare\n');
    await writeFile(join(root, 'in.json'), '{"path":"note.txt"}');
    return root;
  };

  it('is the one thread a run of a shipped built-in starts, started before the CLI loads', async () => {
    const root = await setUp();
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<RunJson>(r).output?.text, 'spare\n');
    assert.deepEqual(threads.origins(), ['early']);
  });

  it('is the start-up wing’s under a policy that caps nothing the manifest asks', async () => {
    const root = await setUp();
    await writeFile(join(root, 'roomy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 1GiB\n');
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json', '--policy', 'roomy.yaml'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<RunJson>(r).output?.text, 'spare\n');
    assert.deepEqual(threads.origins(), ['early']);
  });

  it('is started again with the caps of the policy in force, and taken, when they are not the default policy’s', async () => {
    const root = await setUp();
    await writeFile(join(root, 'policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 96MiB\n');
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json', '--policy', 'policy.yaml'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(json<RunJson>(r).diagnostics.some((d) => d.code === 'POLICY_LIMIT_CAPPED'));
    assert.equal(json<RunJson>(r).output?.text, 'spare\n');
    // The start-up wing's (256 MiB, the default policy), stopped; then the run's own (96 MiB).
    assert.deepEqual(threads.origins(), ['early', 'late']);
  });

  it('is not started for an entrypoint the shipped manifest does not have', async () => {
    const root = await setUp();
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--entrypoint', 'nope', '--input', 'in.json', '--no-audit', '--json'], { cwd: root, env: threads.env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.ok(json<RunJson>(r).diagnostics.some((d) => d.code === 'RUN_ENTRYPOINT_NOT_FOUND'));
    assert.deepEqual(threads.origins(), []);
  });

  it('does not keep a command refused before the run waiting', async () => {
    const root = await setUp();
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--retries', '9', '--no-audit'], { cwd: root, env: threads.env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.deepEqual(threads.origins(), ['early'], 'the start-up wing’s, never taken');
  });

  it('is stopped, and a thread with the granted limits started, when the skill run is not the shipped one', async () => {
    const root = await setUp();
    // The project's own fs.read_text (pinned) asks for less memory than the shipped one.
    const dir = join(root, 'manifests', 'fs.read_text');
    await mkdir(dir, { recursive: true });
    await cp(join(ROOT, 'manifests', 'default', 'fs.read_text', 'skill.yaml'), join(dir, 'skill.yaml'));
    await editManifest(dir, (t) => t.replace('max_memory: 256', 'max_memory: 128'));
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<RunJson>(r).output?.text, 'spare\n');
    assert.deepEqual(threads.origins(), ['early', 'late'], 'the spare (256 MiB), then the run’s own (128 MiB)');
  });

  it('does not keep a refused run waiting', async () => {
    const root = await setUp();
    await writeFile(join(root, 'bad.json'), '{"path":7}');
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'bad.json', '--no-audit', '--json'], { cwd: root, env: threads.env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(json<RunJson>(r).status, 'input_invalid');
    assert.deepEqual(threads.origins(), ['early']);
  });
});
