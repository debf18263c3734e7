// pin in-process: what it writes, what it refuses, and that a refusal writes nothing.
import assert from 'node:assert/strict';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadLock, renderLock, type SkillctlLock } from '../../../src/core/pins/index.js';
import { readSecretKey } from '../../../src/core/sign/index.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { makeKeys, pinPaths } from '../../helpers/pins.js';
import { editManifest, makeProject, projects, removeDir, snapshot } from '../../helpers/project.js';
import { errorCodesOf } from '../../helpers/diagnostics.js';

const lockOf = async (root: string): Promise<SkillctlLock> => JSON.parse(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8')) as SkillctlLock;
const errorCodes = errorCodesOf;

describe('pin', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('writes a canonical lock: sorted, 2-space JSON, final newline, no timestamps', async () => {
    const root = await project();
    const out = await pinPaths(root);
    assert.equal(out.ok, true);
    assert.deepEqual(
      out.changes.map((c) => [c.kind, c.id, c.action]),
      [
        ['skill', 'demo.hello', 'added'],
        ['pack', 'daily', 'added'],
      ],
    );
    const text = await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8');
    const load = loadLock(Buffer.from(text), 'lock');
    assert.deepEqual(load.diagnostics, []);
    assert.equal(text, renderLock(load.loaded?.lock as SkillctlLock));
    assert.doesNotMatch(text, /20\d\d-\d\d-\d\d/);
    // Pinning again changes nothing.
    const again = await pinPaths(root);
    assert.deepEqual(again.changes.map((c) => c.action), ['unchanged', 'unchanged']);
    assert.equal(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8'), text);
  });

  it('refuses to change the digests of a pinned identity without --replace, and writes nothing', async () => {
    const root = await project();
    await pinPaths(root);
    await editManifest(join(root, 'manifests', 'hello'), (t) => t.replace('description: Say hello.', 'description: Say hello loudly.'));
    const before = await snapshot(root);
    const refused = await pinPaths(root, { paths: ['manifests/hello'] });
    assert.deepEqual(errorCodes(refused.diagnostics), ['PIN_IMMUTABLE']);
    assert.deepEqual(await snapshot(root), before);
    const replaced = await pinPaths(root, { paths: ['manifests/hello'], replace: true });
    assert.equal(replaced.ok, true);
    assert.deepEqual(replaced.changes.map((c) => c.action), ['updated']);
  });

  it('a new version in the same directory replaces the old pin of that source', async () => {
    const root = await project();
    await pinPaths(root);
    await editManifest(join(root, 'manifests', 'hello'), (t) => t.replace('skill_version: 0.1.0', 'skill_version: 0.2.0'));
    const out = await pinPaths(root, { paths: ['manifests/hello'] });
    assert.deepEqual(out.changes.map((c) => [c.version, c.action]), [
      ['0.1.0', 'removed'],
      ['0.2.0', 'added'],
    ]);
    assert.deepEqual((await lockOf(root)).skills.map((s) => s.skill_version), ['0.2.0']);
  });

  it('--all drops pins of bundles that no longer exist under manifests/', async () => {
    const root = await project();
    await pinPaths(root);
    await rm(join(root, 'manifests', 'packs', 'daily.yaml'));
    const out = await pinPaths(root);
    assert.deepEqual(out.changes.filter((c) => c.action === 'removed').map((c) => c.id), ['daily']);
    assert.deepEqual((await lockOf(root)).packs, []);
  });

  it('refuses an invalid bundle, an invalid pack, and writes nothing', async () => {
    const root = await project();
    await writeFile(join(root, 'manifests', 'hello', 'run.js'), 'changed');
    await writeFile(join(root, 'manifests', 'packs', 'daily.yaml'), 'profile: Daily Profile\n');
    const out = await pinPaths(root);
    assert.deepEqual(errorCodes(out.diagnostics), ['CONTENT_DIGEST_MISMATCH', 'PACK_DOCUMENT_INVALID']);
    await assert.rejects(readFile(join(root, 'pins', 'skills.lock.json')), { code: 'ENOENT' });
  });

  it('records the keys file on first use; a changed keys file needs --trust-keys', async () => {
    const root = await project();
    const keys = await makeKeys(root, ['alice']);
    const first = await pinPaths(root, { sign: keys, minSigners: 1 });
    assert.equal(first.ok, true, JSON.stringify(first.diagnostics));
    const lock = await lockOf(root);
    assert.equal(lock.keys_file, 'public-keys.json');
    assert.equal(lock.min_signers, 1);
    assert.deepEqual(lock.skills[0]?.signers, ['alice']);
    await makeKeys(root, ['bob']);
    const refused = await pinPaths(root);
    assert.deepEqual(errorCodes(refused.diagnostics), ['KEYS_DIGEST_MISMATCH']);
    const trusted = await pinPaths(root, { trustKeys: true });
    assert.equal(trusted.ok, true);
    assert.notEqual((await lockOf(root)).keys_digest, lock.keys_digest);
  });

  it('signing one at a time: the signature lands, the pin waits for min_signers', async () => {
    const root = await project();
    const keys = await makeKeys(root, ['alice', 'bob']);
    const one = await pinPaths(root, { paths: ['manifests/hello'], sign: { alice: keys.alice as never }, minSigners: 2 });
    assert.deepEqual(errorCodes(one.diagnostics), ['TOO_FEW_SIGNERS']);
    assert.deepEqual(one.signaturesWritten, ['manifests/hello']);
    assert.equal(one.lockWritten, false);
    const two = await pinPaths(root, { paths: ['manifests/hello'], sign: { bob: keys.bob as never }, minSigners: 2 });
    assert.equal(two.ok, true, JSON.stringify(two.diagnostics));
    assert.deepEqual((await lockOf(root)).skills[0]?.signers, ['alice', 'bob']);
  });

  it('a partial signature is not written into a folder the lock already pins: its pin keeps verifying', async () => {
    const root = await project();
    const keys = await makeKeys(root, ['alice', 'bob', 'carol']);
    assert.equal((await pinPaths(root, { paths: ['manifests/hello'], sign: { alice: keys.alice as never, bob: keys.bob as never }, minSigners: 2 })).ok, true);
    const before = await snapshot(root);
    const more = await pinPaths(root, { paths: ['manifests/hello'], sign: { carol: keys.carol as never }, minSigners: 4 });
    assert.deepEqual(errorCodes(more.diagnostics), ['TOO_FEW_SIGNERS']);
    assert.deepEqual(more.signaturesWritten, []);
    assert.equal(more.lockWritten, false);
    assert.deepEqual(await snapshot(root), before, 'signatures.json and the lock are as they were');
  });

  it('refuses to raise min_signers above what a pin it does not touch has, and writes nothing', async () => {
    const root = await project();
    await writeBundle(join(root, 'manifests', 'other'), { skill_id: 'test.other', entrypoints: [entry()] });
    const keys = await makeKeys(root, ['alice', 'bob']);
    const all = await pinPaths(root, { sign: { alice: keys.alice as never }, minSigners: 1 });
    assert.equal(all.ok, true, JSON.stringify(all.diagnostics));
    const before = await snapshot(root);
    const raised = await pinPaths(root, { paths: ['manifests/hello'], sign: { bob: keys.bob as never }, minSigners: 2 });
    assert.deepEqual(errorCodes(raised.diagnostics), ['TOO_FEW_SIGNERS']);
    const named = raised.diagnostics.filter((d) => d.code === 'TOO_FEW_SIGNERS' && d.file === 'pins/skills.lock.json');
    assert.ok(named.length > 0 && named.every((d) => /^\/skills\/\d+\/signers$/.test(d.pointer ?? '')), JSON.stringify(raised.diagnostics));
    assert.equal(raised.lockWritten, false);
    assert.deepEqual(await snapshot(root), before);
  });

  it('refuses a signer whose key is not in the keys file, and signing an archive', async () => {
    const root = await project();
    const keys = await makeKeys(root, ['alice']);
    const out = await pinPaths(root, { paths: ['manifests/hello'], sign: { mallory: keys.alice as never } });
    assert.deepEqual(errorCodes(out.diagnostics), ['SIGNER_UNKNOWN']);
    const { packBundle } = await import('../../../src/core/pack/index.js');
    await packBundle(join(root, 'manifests', 'hello'), root);
    const archive = await pinPaths(root, { paths: ['demo.hello-0.1.0.tgz'], sign: keys });
    assert.deepEqual(errorCodes(archive.diagnostics), ['USAGE']);
  });

  it('refuses a provenact lock as the lock to write', async () => {
    const root = await project();
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(root, 'pins'));
    await writeFile(join(root, 'pins', 'skills.lock.json'), JSON.stringify({ schema_version: '1.0.0', skills: [] }));
    const out = await pinPaths(root);
    assert.deepEqual(errorCodes(out.diagnostics), ['LOCK_INVALID']);
  });
});

describe('secret keys', () => {
  it('refuses a key file others can read, and one that is not a seed', async () => {
    const root = await makeProject();
    try {
      await makeKeys(root, ['alice']);
      const path = join(root, '.skillctl', 'keys', 'alice.key');
      assert.ok((await readSecretKey(path)).key !== undefined);
      await chmod(path, 0o644);
      assert.deepEqual((await readSecretKey(path)).diagnostics.map((d) => d.code), ['SECRET_KEY_INVALID']);
      await writeFile(path, 'not base64 of 32 bytes', { mode: 0o600 });
      await chmod(path, 0o600);
      assert.deepEqual((await readSecretKey(path)).diagnostics.map((d) => d.code), ['SECRET_KEY_INVALID']);
    } finally {
      await removeDir(root);
    }
  });
});
