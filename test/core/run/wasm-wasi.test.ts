// WASI preview 1 over the gate: WAT fixtures compiled here, run as WASI commands with preopens of
// the granted directories only, and the attacks (a symlink out, `..`, an absolute path, writing to
// a read-only preopen, a FIFO, an environment variable not granted, stdout past its limit).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { RunResult } from '../../../src/core/run/index.js';
import { wasmReceiptProblem } from '../../../src/core/run/audit-receipt.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { fifo } from '../../helpers/hostile.js';
import { engine, errorCodes, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';
import { compileWat } from '../../helpers/wat.js';

const ANY = {};
const ANY_IN = { properties: { path: {} } };
const ANY_OUT = { properties: { ok: {} } };
const NOTCAPABLE = 76;

describe('wasm runtime: WASI preview 1', () => {
  const tmp = tempDir('skillctl-wasi-');
  let root: string;
  let granted: string;
  const b = (name: string): string => join(root, 'bundles', name);
  const run = (target: string, input: unknown, extra: Partial<Parameters<typeof engine>[0]> = {}): Promise<RunResult> => engine({ cwd: root, target, input, ...extra });

  async function wasiBundle(name: string, fixture: string, over: Record<string, unknown> = {}): Promise<string> {
    const dir = b(name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
    return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: ANY_IN, output_schema: ANY_OUT, error_schema: ANY, ...over })] });
  }
  /** wasi-open.wat with a mode and a path, under fs.read (and fs.write unless `readOnly`) of `granted`. */
  async function open(name: string, mode: 'r' | 'w' | 'p', path: string, readOnly = false): Promise<RunResult> {
    const perms = readOnly ? { 'fs.read': [granted] } : { 'fs.read': [granted], 'fs.write': [granted] };
    const dir = await wasiBundle(name, 'wasi-open', { command: ['skill.wasm', '_start', mode, path], requested_permissions: perms });
    return run(dir, {}, { policy: policyFrom({ permissions: perms }, root) });
  }

  before(async () => {
    root = realpathSync(tmp);
    granted = join(root, 'granted');
    await mkdir(join(granted, 'sub'), { recursive: true });
    await writeFile(join(granted, 'data.json'), '{"hello":"world"}');
    await writeFile(join(granted, 'sub', 'b.json'), '[1,2]');
    await writeFile(join(root, 'secret.json'), '{"secret":true}');
    await symlink(join(root, 'secret.json'), join(granted, 'link.json'));
    await symlink('data.json', join(granted, 'inner-link.json'));
    fifo(join(granted, 'pipe'));
  });

  it('hello: what _start writes to stdout is the output', async () => {
    const r = await run(await wasiBundle('hello', 'wasi-hello'), {});
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { hello: 'wasi' });
    assert.equal(r.record.result?.sandbox, 'wasm');
    assert.match(r.record.result?.wasm?.output_bytes_digest ?? '', /^sha256:[0-9a-f]{64}$/);
  });

  it('stdin is the run\'s input; proc_exit ends the run with its status', async () => {
    const echo = await run(await wasiBundle('echo', 'wasi-echo'), { a: [1, 'x'] });
    assert.equal(echo.status, 'ok', JSON.stringify(echo.diagnostics));
    assert.deepEqual(echo.output, { a: [1, 'x'] });
    const zero = await run(await wasiBundle('exit0', 'wasi-echo', { command: ['skill.wasm', '_start', '0'] }), { b: 2 });
    assert.equal(zero.status, 'ok');
    assert.deepEqual(zero.output, { b: 2 });
    // A non-zero status with JSON on stdout is the skill's error, as for a process.
    const error = await run(await wasiBundle('exit3', 'wasi-echo', { command: ['skill.wasm', '_start', '3'] }), { why: 'bad' });
    assert.equal(error.status, 'skill_error', JSON.stringify(error.diagnostics));
    assert.deepEqual(error.error, { why: 'bad' });
    const quiet = await run(await wasiBundle('exit5', 'wasi-echo', { command: ['skill.wasm', '_start', '5', 'quiet'] }), {});
    assert.equal(quiet.status, 'failed');
    assert.equal(quiet.exitCode, 1);
    assert.deepEqual(errorCodes(quiet), ['RUN_SKILL_FAILED']);
    assert.match(quiet.diagnostics.find((d) => d.code === 'RUN_SKILL_FAILED')?.message ?? '', /exited with status 5/);
  });

  it('arguments come from the command; the environment is the grant\'s only', async () => {
    const dir = await wasiBundle('args-env', 'wasi-args-env', {
      command: ['skill.wasm', '_start', 'one', 'two'],
      requested_permissions: { env: ['SKILL_GRANTED'] },
      required_environment_variables: ['SKILL_GRANTED'],
    });
    const policy = policyFrom({ permissions: { env: ['SKILL_GRANTED'] } }, root);
    const r = await run(dir, {}, { policy, env: { SKILL_GRANTED: 'yes', SKILL_SECRET: 'no', PATH: '/usr/bin', HOME: '/home/x' } });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    const out = r.output as { args: string; env: string };
    assert.equal(out.args, 'skill.wasm|one|two');
    const env = out.env.split('|');
    assert.ok(env.includes('SKILL_GRANTED=yes'), out.env);
    assert.deepEqual(
      env.filter((e) => /^(SKILL_SECRET|PATH|HOME)=/.test(e)),
      [],
      'a variable not granted, and PATH, are invisible',
    );
  });

  it('preopens: the granted directory, under its real path', async () => {
    const r = await open('preopen', 'p', '.');
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, granted);
  });

  it('reads a granted file, and a symlink that stays inside the grant', async () => {
    for (const path of ['data.json', './data.json', './/data.json', 'inner-link.json']) {
      const r = await open(`read-${path.replace(/\W/g, '')}`, 'r', path);
      assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
      assert.deepEqual(r.output, { hello: 'world' }, path);
      assert.deepEqual(r.record.result?.wasm?.caps_used, ['fs.read']);
      assert.equal(r.record.policy.decision, 'allow');
    }
    const nested = await open('read-nested', 'r', 'sub/./b.json');
    assert.deepEqual(nested.output, [1, 2]);
    const missing = await open('read-missing', 'r', 'nope.json');
    assert.deepEqual(missing.output, { errno: 44 });
  });

  it('writes a granted file atomically, through fd_close', async () => {
    const r = await open('write', 'w', 'out.json');
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { ok: true });
    assert.equal(await readFile(join(granted, 'out.json'), 'utf8'), '{"written":true}');
    assert.deepEqual(r.record.result?.wasm?.caps_used, ['fs.write']);
  });

  // Each attack gets the errno, not a trap; the refusal is in the audit record like a hostcall's.
  const attacks: [string, 'r' | 'w', string, string][] = [
    ['a symlink in the preopen that leads out of it', 'r', 'link.json', 'POLICY_PATH_DENIED'],
    ['a ../ escape', 'r', '../secret.json', 'POLICY_PATH_INVALID'],
    ['a ../ escape inside a longer path', 'r', 'sub/../../secret.json', 'POLICY_PATH_INVALID'],
    ['an absolute path', 'r', '/etc/passwd', 'POLICY_PATH_DENIED'],
    ['an absolute path inside the grant', 'r', '@granted/data.json', 'POLICY_PATH_DENIED'],
    ['a FIFO', 'r', 'pipe', 'POLICY_PATH_DENIED'],
    ['writing through a symlink out of the grant', 'w', 'link.json', 'POLICY_PATH_DENIED'],
    ['writing with ../', 'w', '../planted.json', 'POLICY_PATH_INVALID'],
    ['writing to a FIFO', 'w', 'pipe', 'POLICY_PATH_DENIED'],
  ];
  for (const [what, mode, path, code] of attacks) {
    it(`refused with NOTCAPABLE and recorded: ${what}`, async () => {
      const r = await open(`attack-${what.replace(/\W/g, '-')}`, mode, path.replace('@granted', granted));
      assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
      assert.deepEqual(r.output, { errno: NOTCAPABLE });
      assert.equal(r.record.policy.decision, 'deny');
      assert.deepEqual(
        r.record.policy.denials.map((d) => d.code),
        [code],
      );
    });
  }

  it('the secret was never read, and nothing was planted outside the grant', async () => {
    assert.equal(await readFile(join(root, 'secret.json'), 'utf8'), '{"secret":true}');
    await assert.rejects(stat(join(root, 'planted.json')), { code: 'ENOENT' });
  });

  it('a read-only preopen refuses path_open to write (NOTCAPABLE), and writes nothing', async () => {
    const r = await open('read-only', 'w', 'ro.json', true);
    assert.deepEqual(r.output, { errno: NOTCAPABLE });
    assert.deepEqual(
      r.record.policy.denials.map((d) => [d.scope, d.code]),
      [['fs.write', 'POLICY_PATH_DENIED']],
    );
    await assert.rejects(stat(join(granted, 'ro.json')), { code: 'ENOENT' });
  });

  it('without a grant there is no preopen: fd 3 is EBADF', async () => {
    const dir = await wasiBundle('no-grant', 'wasi-open', { command: ['skill.wasm', '_start', 'r', 'data.json'] });
    const r = await run(dir, {});
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { errno: 8 });
  });

  it('clocks, randomness and sockets are NOTCAPABLE; sched_yield succeeds', async () => {
    const r = await run(await wasiBundle('unscoped', 'wasi-unscoped'), {});
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, [String(NOTCAPABLE), String(NOTCAPABLE), String(NOTCAPABLE), '00']);
  });

  it('stdout past max_output_bytes stops the module: RUN_OUTPUT_LIMIT', async () => {
    const r = await run(await wasiBundle('flood', 'wasi-flood', { runtime_limits: { max_output_bytes: '64KiB' } }), {});
    assert.equal(r.status, 'output_limit');
    assert.equal(r.exitCode, 1);
    assert.deepEqual(errorCodes(r), ['RUN_OUTPUT_LIMIT']);
  });

  it('a WASI call outside the supported list is refused before start, naming it', async () => {
    const r = await run(await wasiBundle('symlink-call', 'wasi-import-unsupported'), {});
    assert.equal(r.status, 'bundle_invalid');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_IMPORT_REFUSED']);
    assert.match(r.diagnostics.find((d) => d.code === 'RUN_WASM_IMPORT_REFUSED')?.message ?? '', /"wasi_snapshot_preview1"\."path_symlink", which the host does not offer/);
  });

  it('a WASI command started at another export, or arguments to a provenact module, are refused', async () => {
    const other = await run(await wasiBundle('other-entry', 'wasi-hello', { command: ['skill.wasm', 'run'] }), {});
    assert.deepEqual(errorCodes(other), ['RUN_WASM_ENTRY_INVALID']);
    const args = await run(await wasiBundle('provenact-args', 'return-value', { command: ['skill.wasm', '_start', 'x'] }), {});
    assert.deepEqual(errorCodes(args), ['RUN_WASM_ENTRY_INVALID']);
  });

  it('with retries, the receipt is the last attempt\'s: its caps, and no output when it made none', async () => {
    const dir = join(root, 'retry-grant');
    await mkdir(dir);
    await writeFile(join(dir, 'data.json'), '{}');
    const perms = { 'fs.read': [dir], 'fs.write': [dir] };
    const bundle = await wasiBundle('retry-new-cap', 'wasi-retry-new-cap', { requested_permissions: perms });
    const r = await run(bundle, {}, { policy: policyFrom({ permissions: perms }, root), request: { retries: 1 }, options: { wasmFuel: 10_000 } });
    assert.deepEqual([r.status, r.record.result?.attempts], ['failed', 2]);
    assert.deepEqual(errorCodes(r), ['RUN_WASM_FUEL_EXHAUSTED']);
    // Before, the receipt was the first attempt's: caps_used ["fs.write"] beside a record that used
    // fs.read too (audit verify: AUDIT_RECEIPT_INCONSISTENT), and the digest of its discarded output.
    assert.deepEqual(r.record.result?.wasm?.caps_used, ['fs.read', 'fs.write']);
    assert.equal(r.record.result?.wasm?.output_bytes_digest, null);
    assert.equal(wasmReceiptProblem(r.record as unknown as Record<string, unknown>), undefined);
  });

  it('fuel applies as to any module', async () => {
    const r = await run(await wasiBundle('flood-fuel', 'wasi-flood', { runtime_limits: { max_output_bytes: '1GiB' } }), {}, { options: { wasmFuel: 1000 } });
    assert.deepEqual(errorCodes(r), ['RUN_WASM_FUEL_EXHAUSTED']);
  });
});
