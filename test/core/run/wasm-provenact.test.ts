// provenact bundle directories run as they are, and the conformance of the three provenact
// default skills (as WAT in fixtures/wasm/provenact-default-skills.wat, the real wasm files not
// being in this repository) with skillctl's built-ins: same inputs, same policy, same results.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jcsDigest, sha256 } from '../../../src/core/digest/index.js';
import { generateSigningKey, parseSecretKey, renderSignatures, signDigest, type SecretKey } from '../../../src/core/sign/index.js';
import { fsReadText } from '../../../src/skills/fs.read_text.js';
import { fsReadTree } from '../../../src/skills/fs.read_tree.js';
import { httpFetchText } from '../../../src/skills/http.fetch_text.js';
import { ROOT } from '../../helpers/paths.js';
import { engine, errorCodes, policyFrom } from '../../helpers/run.js';
import { tempDir } from '../../helpers/tmp.js';
import { compileWat } from '../../helpers/wat.js';

const KEY = parseSecretKey(generateSigningKey().secretKeyText, 'test.dev').key as SecretKey;

interface BundleOptions {
  readonly fixture?: string;
  readonly entrypoint: string;
  readonly capabilities: { kind: string; value: string }[];
  readonly tamper?: 'artifact' | 'signature' | 'undeclared-signer';
}

/** A provenact bundle as provenact-cli pack and sign write it, signed by a key made here. */
async function provenactBundle(dir: string, o: BundleOptions): Promise<string> {
  await mkdir(dir, { recursive: true });
  const wasm = Buffer.from(await compileWat(o.fixture ?? 'provenact-default-skills'));
  const manifest = { name: 'test.skill', version: '0.1.0', entrypoint: o.entrypoint, artifact: sha256(wasm), capabilities: o.capabilities, signers: ['test.dev'] };
  const hash = jcsDigest(manifest);
  const signer = o.tamper === 'undeclared-signer' ? 'mallory.dev' : 'test.dev';
  const signature = signDigest(KEY, o.tamper === 'signature' ? jcsDigest({ ...manifest, version: '0.1.1' }) : hash);
  await writeFile(join(dir, 'skill.wasm'), o.tamper === 'artifact' ? Buffer.concat([wasm, Buffer.from([0])]) : wasm);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, 'signatures.json'), renderSignatures({ artifact: manifest.artifact, manifest_hash: hash, signatures: [{ signer, algorithm: 'ed25519', signature }] }));
  await writeFile(join(dir, 'public-keys.json'), `${JSON.stringify({ 'test.dev': KEY.publicKey }, null, 2)}\n`);
  return dir;
}

describe('provenact bundles under the wasm runtime', () => {
  const tmp = tempDir('skillctl-provenact-run-');
  let root: string;
  let server: Server;
  let base: string;

  before(async () => {
    root = realpathSync(tmp);
    await mkdir(join(root, 'work', 'sub'), { recursive: true });
    await writeFile(join(root, 'work', 'a.txt'), 'hello');
    await writeFile(join(root, 'work', 'sub', 'b.txt'), 'world!');
    await writeFile(join(root, 'outside.txt'), 'secret');
    server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/page' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('fetched text');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const work = (): string => join(root, 'work');
  const policy = (): ReturnType<typeof policyFrom> => policyFrom({ permissions: { 'fs.read': [work()], 'net.http': [`${base}/`] } }, root);
  const builtin = (id: string): string => join(ROOT, 'manifests', 'default', id);

  it('fs.read_text: the wasm skill gives the built-in\'s text', async () => {
    const dir = await provenactBundle(join(root, 'b', 'read-text'), { entrypoint: 'read_text', capabilities: [{ kind: 'fs.read', value: work() }] });
    const path = join(work(), 'a.txt');
    const wasm = await engine({ cwd: root, target: dir, input: path, policy: policy() });
    const native = await engine({ cwd: root, target: builtin('fs.read_text'), input: { path }, policy: policy(), builtins: [fsReadText] });
    assert.equal(wasm.status, 'ok', JSON.stringify(wasm.diagnostics));
    assert.equal(native.status, 'ok', JSON.stringify(native.diagnostics));
    assert.equal(wasm.output, (native.output as { text: string }).text);
    assert.deepEqual(wasm.record.result?.wasm?.caps_used, ['fs.read']);
    assert.match(wasm.record.request.manifest_digest ?? '', /^sha256:/);
  });

  it('fs.read_text outside the grant: both refused with exit 3 and the same code', async () => {
    const dir = await provenactBundle(join(root, 'b', 'read-text-out'), { entrypoint: 'read_text', capabilities: [{ kind: 'fs.read', value: work() }] });
    const path = join(root, 'outside.txt');
    const wasm = await engine({ cwd: root, target: dir, input: path, policy: policy() });
    const native = await engine({ cwd: root, target: builtin('fs.read_text'), input: { path }, policy: policy(), builtins: [fsReadText] });
    assert.equal(wasm.exitCode, 3);
    assert.equal(native.exitCode, 3);
    assert.deepEqual(errorCodes(wasm), errorCodes(native));
  });

  it('fs.read_tree: the wasm skill lists the built-in\'s files with the same sizes', async () => {
    const dir = await provenactBundle(join(root, 'b', 'read-tree'), { entrypoint: 'read_tree', capabilities: [{ kind: 'fs.read', value: work() }] });
    const wasm = await engine({ cwd: root, target: dir, input: work(), policy: policy() });
    const native = await engine({ cwd: root, target: builtin('fs.read_tree'), input: { root: work() }, policy: policy(), builtins: [fsReadTree] });
    assert.equal(wasm.status, 'ok', JSON.stringify(wasm.diagnostics));
    assert.equal(native.status, 'ok', JSON.stringify(native.diagnostics));
    const tree = JSON.parse(wasm.output as string) as { entries: { path: string; kind: string; bytes?: number }[]; root: string; truncated: boolean };
    assert.deepEqual(tree.entries, [
      { bytes: 5, kind: 'file', path: 'a.txt' },
      { kind: 'dir', path: 'sub' },
      { bytes: 6, kind: 'file', path: 'sub/b.txt' },
    ]);
    const files = (e: readonly { path: string; kind: string; bytes?: number }[]): string[] => e.filter((x) => x.kind === 'file').map((x) => `${x.path}:${x.bytes}`).sort();
    assert.deepEqual(files(tree.entries), files((native.output as { entries: { path: string; kind: string; bytes?: number }[] }).entries));
  });

  it('http.fetch_text: the wasm skill gives the built-in\'s text; a redirect is -1 in provenact (output "1")', async () => {
    const dir = await provenactBundle(join(root, 'b', 'fetch'), { entrypoint: 'fetch_text', capabilities: [{ kind: 'net.http', value: `${base}/` }] });
    const wasm = await engine({ cwd: root, target: dir, input: `${base}/page`, policy: policy() });
    const native = await engine({ cwd: root, target: builtin('http.fetch_text'), input: { url: `${base}/page` }, policy: policy(), builtins: [httpFetchText] });
    assert.equal(wasm.status, 'ok', JSON.stringify(wasm.diagnostics));
    assert.equal(native.status, 'ok', JSON.stringify(native.diagnostics));
    assert.equal(wasm.output, (native.output as { text: string }).text);
    const redirected = await engine({ cwd: root, target: dir, input: `${base}/redirect`, policy: policy() });
    assert.equal(redirected.output, '1');
  });

  it('a placeholder bundle reports UNIMPLEMENTED_HOSTCALL as a failed run', async () => {
    const dir = await provenactBundle(join(root, 'b', 'placeholder'), { fixture: 'unimplemented', entrypoint: 'run', capabilities: [] });
    const r = await engine({ cwd: root, target: dir, input: '', policy: policy() });
    assert.equal(r.status, 'failed');
    assert.deepEqual(errorCodes(r), ['RUN_WASM_UNIMPLEMENTED']);
  });

  it('a bundle whose module imports inactu verifies but does not run: refused naming the module', async () => {
    const dir = await provenactBundle(join(root, 'b', 'inactu'), { fixture: 'import-inactu', entrypoint: 'run', capabilities: [] });
    const r = await engine({ cwd: root, target: dir, input: '', policy: policy() });
    assert.deepEqual(errorCodes(r), ['RUN_WASM_IMPORT_REFUSED']);
  });

  for (const [tamper, code] of [
    ['artifact', 'PROVENACT_BUNDLE_INVALID'],
    ['signature', 'SIGNATURE_BAD'],
    ['undeclared-signer', 'SIGNER_UNEXPECTED'],
  ] as const) {
    it(`a bundle with a tampered ${tamper} is not run (${code})`, async () => {
      const dir = await provenactBundle(join(root, 'b', `tampered-${tamper}`), { entrypoint: 'read_text', capabilities: [{ kind: 'fs.read', value: work() }], tamper });
      const r = await engine({ cwd: root, target: dir, input: join(work(), 'a.txt'), policy: policy() });
      assert.equal(r.status, 'bundle_invalid');
      assert.ok(errorCodes(r).includes(code), JSON.stringify(errorCodes(r)));
      assert.equal(r.record.result?.attempts, 0);
    });
  }
});
