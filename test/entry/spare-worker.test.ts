// A run of a shipped built-in starts its thread early (src/entry/spare-worker.ts): the run must
// take that thread when its grant's limits are the ones guessed, start a thread of its own when
// they are not, and never wait on a spare it did not use.
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

  it('is the one thread a run of a shipped built-in starts', async () => {
    const root = await setUp();
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<RunJson>(r).output?.text, 'spare\n');
    assert.equal(threads.started(), 1);
  });

  it('is started with the caps of the policy in force, and taken', async () => {
    const root = await setUp();
    await writeFile(join(root, 'policy.yaml'), 'version: 1\npermissions:\n  fs.read: [.]\nlimits:\n  max_memory: 96MiB\n');
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'in.json', '--no-audit', '--json', '--policy', 'policy.yaml'], { cwd: root, env: threads.env });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(json<RunJson>(r).diagnostics.some((d) => d.code === 'POLICY_LIMIT_CAPPED'));
    assert.equal(threads.started(), 1);
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
    assert.equal(threads.started(), 2, 'the spare (256 MiB), then the run’s own (128 MiB)');
  });

  it('does not keep a refused run waiting', async () => {
    const root = await setUp();
    await writeFile(join(root, 'bad.json'), '{"path":7}');
    const threads = workerTrace(root);
    const r = skillctl(['run', 'fs.read_text', '--input', 'bad.json', '--no-audit', '--json'], { cwd: root, env: threads.env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(json<RunJson>(r).status, 'input_invalid');
    assert.equal(threads.started(), 1);
  });
});
