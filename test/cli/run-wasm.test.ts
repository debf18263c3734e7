// `skillctl run` of wasm bundles through the CLI (its bundles, the module's thread started from
// them): the output, a refusal's exit status 3, a refused import, and the receipt audit verify checks.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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

const SCHEMAS = { input_schema: { properties: { path: {} } }, output_schema: { properties: { ok: {} } }, error_schema: {} };

describe('skillctl run (wasm)', () => {
  const tmp = tempDir('skillctl-cli-wasm-');
  let project: string;

  async function bundle(name: string, fixture: string, over: Record<string, unknown> = {}): Promise<void> {
    const dir = join(project, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', ...SCHEMAS, ...over })] });
  }

  before(async () => {
    project = realpathSync(tmp);
    await mkdir(join(project, '.git'));
    await mkdir(join(project, 'data'));
    await writeFile(join(project, 'data', 'x.json'), '{"ok":"yes"}');
    await writeFile(join(project, 'skillctl.policy.yaml'), 'version: 1\npermissions:\n  fs.read: [data]\n');
    await bundle('echo', 'echo-input');
    await bundle('read', 'read-file', { requested_permissions: { 'fs.read': ['data'] } });
    await bundle('inactu', 'import-inactu');
  });

  it('prints the module output and records a receipt that audit verify accepts', async () => {
    const r = skillctl(['run', './echo', '--input', '-', '--json'], { cwd: project, input: '{"path":"p"}' });
    const doc = json<RunDoc>(r);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(doc.output, { path: 'p' });
    const log = (await readFile(join(project, '.skillctl', 'audit.jsonl'), 'utf8')).trim().split('\n');
    const end = JSON.parse(log[log.length - 1] as string) as { result: { sandbox: string; wasm: { caps_used: string[] } } };
    assert.equal(end.result.sandbox, 'wasm');
    assert.deepEqual(end.result.wasm.caps_used, []);
    const verified = skillctl(['audit', 'verify'], { cwd: project });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  });

  it('reads inside the grant; outside it the run is refused with exit 3', async () => {
    const ok = skillctl(['run', './read', '--input', '-', '--json'], { cwd: project, input: JSON.stringify(join(project, 'data', 'x.json')) });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(json<RunDoc>(ok).output, { ok: 'yes' });
    const denied = skillctl(['run', './read', '--input', '-', '--json'], { cwd: project, input: JSON.stringify(join(project, 'skillctl.policy.yaml')) });
    assert.equal(denied.code, 3);
    assert.deepEqual(json<RunDoc>(denied).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['POLICY_PATH_DENIED']);
  });

  it('refuses a module importing inactu before it starts, naming the module', () => {
    const r = skillctl(['run', './inactu', '--json'], { cwd: project });
    assert.equal(r.code, 1);
    const d = json<RunDoc>(r).diagnostics.find((x) => x.code === 'RUN_WASM_IMPORT_REFUSED');
    assert.match(d?.message ?? '', /module "inactu"/);
  });
});
