// The repository pins everything under manifests/ in pins/skills.lock.json, and it verifies.
// Every skill pin is signed by the project's key, whose public half ships in pins/ and whose
// secret half never enters the repository (docs/formats/signatures.md, "The project's key").
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { json, skillctl } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { removeDir, tempDir } from '../helpers/project.js';

interface ShippedLock {
  readonly min_signers: number;
  readonly keys_file?: string;
  readonly skills: readonly { readonly source: string; readonly signers: readonly string[] }[];
}

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
});

describe('dogfood', () => {
  it('skillctl verify-pins passes on this repository', () => {
    const r = skillctl(['verify-pins', '--json'], { cwd: ROOT });
    const doc = json<{ ok: boolean; format: string; diagnostics: unknown[] }>(r);
    assert.equal(r.code, 0, JSON.stringify(doc.diagnostics, null, 2));
    assert.equal(doc.format, 'skillctl');
  });

  it('scripts/verify_pins.sh runs it, also with MIN_SIGNERS=1', () => {
    for (const env of [{}, { MIN_SIGNERS: '1' }]) {
      const r = spawnSync('sh', ['scripts/verify_pins.sh'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
      assert.equal(r.status, 0, r.stdout + r.stderr);
    }
  });

  it('the shipped lock needs the project signature on every skill, and names the public keys', async () => {
    const lock = JSON.parse(await readFile(join(ROOT, 'pins', 'skills.lock.json'), 'utf8')) as ShippedLock;
    assert.ok(lock.min_signers >= 1);
    assert.equal(lock.keys_file, 'public-keys.json');
    // The project's signers are the keys it trusts (after a rotation, the new key's id).
    const signers = Object.keys(JSON.parse(await readFile(join(ROOT, 'pins', 'public-keys.json'), 'utf8')) as Record<string, string>);
    assert.ok(signers.length >= lock.min_signers);
    assert.ok(lock.skills.length > 0);
    for (const pin of lock.skills) assert.deepEqual(pin.signers, signers, pin.source);
  });

  it('holds no secret key: nothing tracked under .skillctl/, no *.key file', () => {
    const r = spawnSync('git', ['ls-files', '--', '.skillctl', '*.key'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
  });

  it('a changed built-in cannot be pinned again without the project key, and fails verification unsigned', async () => {
    const root = await tempDir('skillctl-dogfood-');
    dirs.push(root);
    for (const dir of ['manifests', 'pins']) await cp(join(ROOT, dir), join(root, dir), { recursive: true });
    const bundle = join(root, 'manifests', 'default', 'fs.read_text');
    await rm(join(bundle, 'signatures.json'));
    await mkdir(join(bundle, 'extra'));
    await cp(join(ROOT, 'README.md'), join(bundle, 'extra', 'notes.md'));
    assert.equal(skillctl(['validate', '--fix', 'manifests/default/fs.read_text'], { cwd: root }).code, 0);
    const before = await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8');
    const pin = skillctl(['pin', '--json', '--replace', 'manifests/default/fs.read_text'], { cwd: root });
    assert.equal(pin.code, 1, pin.stdout);
    assert.ok(json<{ diagnostics: { code: string }[] }>(pin).diagnostics.some((d) => d.code === 'TOO_FEW_SIGNERS'), pin.stdout);
    assert.equal(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8'), before);
    const verify = skillctl(['verify-pins', '--json'], { cwd: root });
    assert.equal(verify.code, 1);
    const codes = json<{ diagnostics: { code: string }[] }>(verify).diagnostics.map((d) => d.code);
    for (const code of ['PIN_MODIFIED', 'SIGNATURES_INVALID']) assert.ok(codes.includes(code), codes.join(' '));
  });
});
