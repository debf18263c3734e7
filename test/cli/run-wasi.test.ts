// `skillctl run` of a WASI command through the CLI (its bundles, the module's thread started from
// them): a manifest naming `_start` and its arguments, a granted file read through its preopen,
// a symlink out of the grant refused with the errno and recorded, and the record audit verify checks.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { json, skillctl } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { compileWat } from '../helpers/wat.js';

interface RunDoc {
  status: string;
  exit_code: number;
  output: unknown;
  diagnostics: { code: string; severity: string; message: string }[];
}

describe('skillctl run (WASI command)', () => {
  const tmp = tempDir('skillctl-cli-wasi-');
  let project: string;

  async function bundle(name: string, path: string, exportName = '_start'): Promise<void> {
    const dir = join(project, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'tool.wasm'), await compileWat('wasi-open'));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: ['tool.wasm', exportName, 'r', path], input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {}, requested_permissions: { 'fs.read': ['data'] } })] });
  }

  before(async () => {
    project = realpathSync(tmp);
    await mkdir(join(project, '.git'));
    await mkdir(join(project, 'data'));
    await writeFile(join(project, 'data', 'x.json'), '{"ok":"yes"}');
    await writeFile(join(project, 'secret.json'), '{"secret":1}');
    await symlink(join(project, 'secret.json'), join(project, 'data', 'out.json'));
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [data]\n');
    await bundle('read', 'x.json');
    await bundle('escape', 'out.json');
    await bundle('args-to-run', 'x.json', 'run');
  });

  it('validates, runs, reads the granted file through its preopen, and audit verify accepts the record', async () => {
    const lint = skillctl(['validate', './read'], { cwd: project });
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
    const r = skillctl(['run', './read', '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(json<RunDoc>(r).output, { ok: 'yes' });
    const verified = skillctl(['audit', 'verify'], { cwd: project });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  });

  it('arguments after another export than _start are a COMMAND_INVALID finding', () => {
    const r = skillctl(['validate', './args-to-run', '--json'], { cwd: project });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /"code":\s*"COMMAND_INVALID"/);
  });

  it('a symlink out of the preopen: NOTCAPABLE to the module, the denial in the audit record', async () => {
    const r = skillctl(['run', './escape', '--json'], { cwd: project });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(json<RunDoc>(r).output, { errno: 76 });
    const log = (await readFile(join(project, '.skillctl', 'audit.jsonl'), 'utf8')).trim().split('\n');
    const end = JSON.parse(log[log.length - 1] as string) as { policy: { decision: string; denials: { code: string }[] } };
    assert.equal(end.policy.decision, 'deny');
    assert.deepEqual(end.policy.denials.map((d) => d.code), ['POLICY_PATH_DENIED']);
  });
});
