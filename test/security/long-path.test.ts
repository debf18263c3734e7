// A path a skill chooses, thousands of components long, asked about by the gate: a wasm module
// with no grant at all (fs_read_file of "a/a/.../a" built in its own memory), a WASI command
// under a preopen, and a manifest requesting such a path. The gate resolved a path that does not
// exist one missing ancestor at a time, each call awaited inside the last: 4,096 components
// (8 KiB) took 11 s, 16,384 about 150 s, and 32,768 (64 KiB, within a module's memory) ran
// skillctl out of its heap, killed with no record of the run (an `mcp` server with every session).
// Now a path longer than any file has (4,095 bytes) fails in the module's thread, the gate refuses
// one without a pass over it, and finds the deepest existing ancestor of a shorter one by halving.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { resolveReal } from '../../src/core/policy/paths.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctlAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { compileWat } from '../helpers/wat.js';

interface RunDoc {
  status: string;
  output: unknown;
  diagnostics: { code: string }[];
}

/** "a/a/.../a": `n` components, none of which exists. */
const deep = (n: number): string => `${'a/'.repeat(n - 1)}a`;
/** Well within the test's timeout, on a loaded machine; the old code took minutes, or never ended. */
const QUICK_MS = 20_000;

describe('a path thousands of components long costs the gate next to nothing', () => {
  const tmp = tempDir('skillctl-long-path-');
  let project: string;

  async function wasmBundle(name: string, fixture: string, over: Record<string, unknown>): Promise<string> {
    const dir = join(project, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {}, runtime_limits: { max_execution_time: '5s' }, ...over })] });
    return `./${name}`;
  }

  async function timed(args: readonly string[]): Promise<{ readonly code: number; readonly doc: RunDoc; readonly ms: number }> {
    const t = Date.now();
    const r = await skillctlAsync(args, { cwd: project, timeoutMs: 90_000 });
    return { code: r.code, doc: json<RunDoc>(r), ms: Date.now() - t };
  }

  before(async () => {
    project = realpathSync(tmp);
    await mkdir(join(project, '.git'));
    await mkdir(join(project, 'data'));
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [data]\n');
  });

  it('a wasm module with no grant: fs_read_file of 16,384 components fails at once (-1), and the run ends', async () => {
    const target = await wasmBundle('provenact', 'hostile-long-path', { command: 'skill.wasm' });
    const r = await timed(['run', target, '--json']);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.equal(r.doc.output, -1);
    assert.ok(r.ms < QUICK_MS, `${r.ms} ms`);
  });

  it('a WASI command: path_open of 16,384 components under its preopen is NAMETOOLONG at once, and the module goes on', async () => {
    const target = await wasmBundle('wasi', 'wasi-long-path', { command: 'skill.wasm', requested_permissions: { 'fs.read': ['data'] } });
    const r = await timed(['run', target, '--json']);
    assert.equal(r.code, 0, JSON.stringify(r.doc));
    assert.deepEqual(r.doc.output, { ok: 'nametoolong' });
    assert.ok(r.ms < QUICK_MS, `${r.ms} ms`);
  });

  it('a manifest requesting fs.read of 16,384 components is judged at once', async () => {
    const target = await wasmBundle('manifest', 'wasi-hello', { command: 'skill.wasm', requested_permissions: { 'fs.read': [`data/${deep(16_384)}`] } });
    const r = await timed(['run', target, '--json']);
    assert.ok(r.ms < QUICK_MS, `${r.ms} ms`);
    assert.equal(r.doc.status, 'ok', JSON.stringify(r.doc));
  });

  it('resolveReal: past PATH_MAX is ENAMETOOLONG; within it, the deepest existing ancestor is found in a few calls', async () => {
    // 8 KiB: more than the kernel opens (PATH_MAX).
    await assert.rejects(resolveReal(`${project}/${deep(4_096)}`), { code: 'ENAMETOOLONG' });
    const within = `${project}/data/${deep(1_900)}`;
    const t = Date.now();
    assert.equal(await resolveReal(within), within);
    assert.ok(Date.now() - t < 2_000, `${Date.now() - t} ms`);
  });
});
