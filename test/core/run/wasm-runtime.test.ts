// The wasm runtime: each provenact hostcall through a WAT fixture compiled here, under the same
// gate as the other runtimes, and the hostile modules (loops, memory, pointers, imports, output).
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { canonicalize } from '../../../src/core/digest/index.js';
import { sealRecord, verifyAuditLog, type AuditEndRecord, type RunResult } from '../../../src/core/run/index.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { engine, errorCodes, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';
import { compileWat } from '../../helpers/wat.js';

// Any value: `properties` constrains only objects, and names the fingerprinted fields.
const ANY_IN = { properties: { path: {} } };
const ANY_OUT = { properties: { ok: {} } };

async function wasmBundle(dir: string, fixture: string, over: Record<string, unknown> = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'skill.wasm'), await compileWat(fixture));
  return writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', input_schema: ANY_IN, output_schema: ANY_OUT, error_schema: {}, ...over })] });
}

describe('wasm runtime', () => {
  const tmp = tempDir('skillctl-wasm-');
  let root: string;
  const b = (name: string): string => join(root, 'bundles', name);
  const run = (target: string, input: unknown, extra: Partial<Parameters<typeof engine>[0]> = {}): Promise<RunResult> => engine({ cwd: root, target, input, ...extra });

  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'granted', 'sub'), { recursive: true });
    await writeFile(join(root, 'granted', 'data.json'), '{"hello":"world"}');
    await writeFile(join(root, 'granted', 'sub', 'b.txt'), 'bbbbbb');
    await writeFile(join(root, 'secret.json'), '{"secret":true}');
    await symlink(join(root, 'secret.json'), join(root, 'granted', 'link.json'));
  });

  const policy = (): ReturnType<typeof policyFrom> => policyFrom({ permissions: { 'fs.read': [join(root, 'granted')], 'fs.write': [join(root, 'granted')] } }, root);

  it('input_len, input_read and output_write: the output is the input', async () => {
    const r = await run(await wasmBundle(b('echo'), 'echo-input'), { a: [1, 2], b: 'x' });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { a: [1, 2], b: 'x' });
    assert.equal(r.record.result?.sandbox, 'wasm');
    assert.deepEqual(r.record.result?.wasm?.limits, { fuel: 10_000_000, memory_bytes: 8 * 1024 * 1024, timeout_ms: r.record.result?.wasm?.limits.timeout_ms, max_output_bytes: r.record.result?.wasm?.limits.max_output_bytes });
    assert.match(r.record.result?.wasm?.artifact_digest ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.match(r.record.result?.wasm?.output_bytes_digest ?? '', /^sha256:[0-9a-f]{64}$/);
  });

  it('() -> i32 without output_write: the output is the decimal return value', async () => {
    const r = await run(await wasmBundle(b('ret'), 'return-value'), {});
    assert.equal(r.status, 'ok');
    assert.equal(r.output, 42);
  });

  it('sha256_input_hex: the digest of the input bytes', async () => {
    const r = await run(await wasmBundle(b('sha'), 'sha256-input', { entrypoint_id: 'main' }), { x: 1 });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    const { createHash } = await import('node:crypto');
    assert.equal(r.output, createHash('sha256').update('{"x":1}').digest('hex'));
  });

  it('fs_read_file inside the grant, with caps_used in the receipt', async () => {
    const dir = await wasmBundle(b('read'), 'read-file', { requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    const r = await run(dir, join(root, 'granted', 'data.json'), { policy: policy() });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { hello: 'world' });
    assert.deepEqual(r.record.result?.wasm?.caps_used, ['fs.read']);
    assert.deepEqual(r.record.policy.capabilities.used, [`fs.read:${join(root, 'granted')}`]);
  });

  it('fs_read_file outside the grant traps: exit 3 with the policy code', async () => {
    const dir = await wasmBundle(b('read-out'), 'read-file', { requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    const r = await run(dir, join(root, 'secret.json'), { policy: policy() });
    assert.equal(r.status, 'denied');
    assert.equal(r.exitCode, 3);
    assert.deepEqual(errorCodes(r), ['POLICY_PATH_DENIED']);
  });

  it('fs_read_file through a symlink out of the grant, or with .., traps the same way', async () => {
    const dir = await wasmBundle(b('read-link'), 'read-file', { requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    for (const path of [join(root, 'granted', 'link.json'), `${join(root, 'granted')}/../secret.json`]) {
      const r = await run(dir, path, { policy: policy() });
      assert.equal(r.exitCode, 3, path);
      assert.equal(r.status, 'denied');
    }
  });

  it('fs_read_file of a missing file returns -1 (no trap)', async () => {
    const dir = await wasmBundle(b('read-missing'), 'read-file', { requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    const r = await run(dir, join(root, 'granted', 'nope.json'), { policy: policy() });
    assert.equal(r.status, 'ok');
    assert.equal(r.output, -1);
  });

  it('fs_read_tree: provenact\'s tree JSON', async () => {
    const dir = await wasmBundle(b('tree'), 'read-file', { command: ['skill.wasm', 'tree'], requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    const r = await run(dir, join(root, 'granted', 'sub'), { policy: policy() });
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.deepEqual(r.output, { entries: [{ bytes: 6, kind: 'file', path: 'b.txt' }], root: join(root, 'granted', 'sub'), truncated: false });
  });

  it('fs_write_file writes inside the grant (creating parents) and traps outside it', async () => {
    const dir = await wasmBundle(b('write'), 'write-file', { requested_permissions: { 'fs.write': [join(root, 'granted')] } });
    const ok = await run(dir, join(root, 'granted', 'new', 'out.json'), { policy: policy() });
    assert.equal(ok.status, 'ok', JSON.stringify(ok.diagnostics));
    assert.equal(ok.output, 0);
    assert.equal(await readFile(join(root, 'granted', 'new', 'out.json'), 'utf8'), '{"ok":true}');
    const out = await run(dir, join(root, 'escaped.json'), { policy: policy() });
    assert.equal(out.exitCode, 3);
    assert.deepEqual(errorCodes(out), ['POLICY_PATH_DENIED']);
  });

  it('http_fetch without net.http traps; a private address is refused even when the prefix is granted', async () => {
    const dir = await wasmBundle(b('http'), 'http-fetch', { requested_permissions: { 'net.http': ['http://localhost.test/'] } });
    const none = await run(dir, 'http://example.com/', { policy: policy() });
    assert.equal(none.exitCode, 3);
    assert.deepEqual(errorCodes(none), ['POLICY_URL_DENIED']);
    const granted = policyFrom({ permissions: { 'net.http': ['http://localhost.test/'] } }, root);
    const priv = await run(dir, 'http://localhost.test/x', { policy: granted, options: { lookupHost: async () => ['127.0.0.1'] } });
    assert.equal(priv.exitCode, 3);
    assert.deepEqual(errorCodes(priv), ['POLICY_ADDRESS_PRIVATE']);
  });

  for (const call of ['time', 'random', 'kv_put', 'kv_get', 'queue_publish', 'queue_consume']) {
    it(`${call}: a capability skillctl cannot grant traps with exit 3`, async () => {
      const r = await run(await wasmBundle(b(`unscoped-${call}`), 'unscoped-hostcalls', { command: ['skill.wasm', call] }), {});
      assert.equal(r.exitCode, 3);
      assert.deepEqual(errorCodes(r), ['RUN_WASM_CAPABILITY_UNSUPPORTED']);
    });
  }

  it('an infinite loop runs out of fuel, at the same point every time', async () => {
    const r = await run(await wasmBundle(b('loop'), 'hostile-loop'), {});
    assert.equal(r.status, 'failed');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_FUEL_EXHAUSTED']);
    assert.match(r.diagnostics.find((d) => d.code === 'RUN_WASM_FUEL_EXHAUSTED')?.message ?? '', /fuel exhausted/);
  });

  it('fuel is deterministic: a count that fits runs, one past the budget stops', async () => {
    const dir = await wasmBundle(b('count'), 'count-loop');
    assert.equal((await run(dir, 100, { options: { wasmFuel: 2000 } })).status, 'ok');
    const counts: string[][] = [];
    for (let i = 0; i < 2; i++) counts.push(errorCodes(await run(dir, 1000, { options: { wasmFuel: 2000 } })));
    assert.deepEqual(counts, [['RUN_WASM_FUEL_EXHAUSTED'], ['RUN_WASM_FUEL_EXHAUSTED']]);
  });

  it('unmetered, an infinite loop is stopped at the deadline', async () => {
    const r = await run(await wasmBundle(b('loop-timeout'), 'hostile-loop', { runtime_limits: { max_execution_time: '300ms' } }), {}, { options: { wasmFuel: null } });
    assert.equal(r.status, 'timeout');
    assert.deepEqual(errorCodes(r), ['RUN_TIMEOUT']);
  });

  it('a start function that loops is stopped like the entry', async () => {
    const r = await run(await wasmBundle(b('start-loop'), 'hostile-start-loop'), {});
    assert.deepEqual(errorCodes(r), ['RUN_WASM_FUEL_EXHAUSTED']);
  });

  it('memory.grow up to the grant succeeds, past it returns -1', async () => {
    assert.equal((await run(await wasmBundle(b('grow'), 'hostile-grow'), {})).output, 1);
    assert.equal((await run(await wasmBundle(b('grow-past'), 'hostile-grow', { command: ['skill.wasm', 'past'] }), {})).output, -1);
  });

  it('a module whose initial memory exceeds the grant is refused before it starts', async () => {
    const r = await run(await wasmBundle(b('big'), 'hostile-big-memory'), {});
    assert.equal(r.status, 'memory_limit');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_MEMORY_LIMIT']);
    const granted = await run(await wasmBundle(b('big-granted'), 'hostile-big-memory', { runtime_limits: { max_memory: '32MiB' } }), {});
    assert.equal(granted.status, 'ok');
  });

  it('out-of-bounds pointers and lengths return -1, never crash the host', async () => {
    const r = await run(await wasmBundle(b('oob'), 'hostile-out-of-bounds'), {});
    assert.equal(r.status, 'ok', JSON.stringify(r.diagnostics));
    assert.equal(r.output, -5);
  });

  it('a huge output_write stops the module with RUN_OUTPUT_LIMIT', async () => {
    const r = await run(await wasmBundle(b('huge'), 'hostile-huge-output', { runtime_limits: { max_output_bytes: '64KiB' } }), {});
    assert.equal(r.status, 'output_limit');
    assert.deepEqual(errorCodes(r), ['RUN_OUTPUT_LIMIT']);
  });

  it('an import from another module (the old inactu name) is refused before it starts, naming the module', async () => {
    const r = await run(await wasmBundle(b('inactu'), 'import-inactu'), {});
    assert.equal(r.status, 'bundle_invalid');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_IMPORT_REFUSED']);
    assert.match(r.diagnostics.find((d) => d.code === 'RUN_WASM_IMPORT_REFUSED')?.message ?? '', /from module "inactu"/);
    const unknown = await run(await wasmBundle(b('unknown-call'), 'import-unknown-call'), {});
    assert.match(unknown.diagnostics.find((d) => d.code === 'RUN_WASM_IMPORT_REFUSED')?.message ?? '', /"provenact"\."exec_shell", which the host does not offer/);
  });

  it('a placeholder reports UNIMPLEMENTED_HOSTCALL as a failed run', async () => {
    const r = await run(await wasmBundle(b('placeholder'), 'unimplemented'), {});
    assert.equal(r.status, 'failed');
    assert.equal(r.exitCode, 1);
    assert.deepEqual(errorCodes(r), ['RUN_WASM_UNIMPLEMENTED']);
  });

  it('an entry with another signature, or a missing entry, is refused', async () => {
    const r = await run(await wasmBundle(b('no-entry'), 'return-value', { command: ['skill.wasm', 'main'] }), {});
    assert.deepEqual(errorCodes(r), ['RUN_WASM_ENTRY_INVALID']);
  });

  it('bytes that are not WebAssembly are refused', async () => {
    const dir = b('garbage');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skill.wasm'), 'not wasm');
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'wasm', command: 'skill.wasm', output_schema: ANY_OUT, input_schema: ANY_IN })] });
    const r = await run(dir, {});
    assert.deepEqual(errorCodes(r), ['RUN_WASM_INVALID']);
  });

  it('audit verify checks the receipt: a sealed record whose caps_used disagree is named', async () => {
    const dir = await wasmBundle(b('read-audit'), 'read-file', { requested_permissions: { 'fs.read': [join(root, 'granted')] } });
    const r = await run(dir, join(root, 'granted', 'data.json'), { policy: policy() });
    const good = verifyAuditLog(`${canonicalize(r.record)}\n`, 'audit.log');
    assert.deepEqual(good.bad_lines, []);
    const rest: { -readonly [K in keyof typeof r.record]?: (typeof r.record)[K] } = { ...r.record };
    delete rest.receipt_hash;
    delete (rest as { prev_hash?: string }).prev_hash;
    const forged = sealRecord({ ...(rest as AuditEndRecord), result: { ...(rest.result as NonNullable<AuditEndRecord['result']>), wasm: { ...(rest.result?.wasm as NonNullable<NonNullable<AuditEndRecord['result']>['wasm']>), caps_used: [] } } } as AuditEndRecord);
    const bad = verifyAuditLog(`${canonicalize(forged)}\n`, 'audit.log');
    assert.deepEqual(bad.bad_lines, [1]);
    assert.deepEqual(bad.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['AUDIT_RECEIPT_INCONSISTENT']);
  });
});
