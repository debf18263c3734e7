// verify-pins in-process: each finding of the list has its code and its pointer.
import assert from 'node:assert/strict';
import { chmod, cp, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findBundles, findPin, openLock, renderLock, verifyLock, verifySkillPin, verifySourceAgainstPin, type SkillctlLock, type SkillPin } from '../../../src/core/pins/index.js';
import { openArchive } from '../../../src/core/bundle/index.js';
import { isSkillctlError } from '../../../src/core/errors.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { makeKeys, open, pinnedProject, pinPaths, type PinnedProject } from '../../helpers/pins.js';
import { makeProject, removeDir } from '../../helpers/project.js';

async function verifyCodes(root: string, opts: { minSigners?: number } = {}): Promise<{ codes: string[]; pointers: string[] }> {
  const opened = await openLock(join(root, 'pins', 'skills.lock.json'), { label: 'pins/skills.lock.json', ...opts });
  const diagnostics = opened.context === undefined ? opened.diagnostics : (await verifyLock(opened.context)).diagnostics;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return { codes: [...new Set(errors.map((d) => d.code))].sort(), pointers: errors.map((d) => d.pointer ?? '') };
}

async function editLock(root: string, edit: (lock: SkillctlLock) => SkillctlLock): Promise<void> {
  const path = join(root, 'pins', 'skills.lock.json');
  const lock = JSON.parse(await readFile(path, 'utf8')) as SkillctlLock;
  await writeFile(path, renderLock(edit(lock)));
}

describe('verify-pins findings', () => {
  const roots: string[] = [];
  const fresh = async (signers: string[] = []): Promise<PinnedProject> => {
    const p = await pinnedProject(signers);
    roots.push(p.root);
    return p;
  };
  after(async () => Promise.all(roots.map(removeDir)));

  it('a freshly pinned project verifies, unsigned and signed', async () => {
    assert.deepEqual((await verifyCodes((await fresh()).root)).codes, []);
    assert.deepEqual((await verifyCodes((await fresh(['alice', 'bob'])).root)).codes, []);
  });

  it('missing bundle: PIN_MISSING at the source', async () => {
    const { root } = await fresh();
    await rm(join(root, 'manifests', 'hello'), { recursive: true });
    const r = await verifyCodes(root);
    assert.deepEqual(r.codes, ['PIN_MISSING']);
    assert.deepEqual(r.pointers, ['/skills/0/source']);
  });

  it('modified file: PIN_MODIFIED naming content_digest and files_digest', async () => {
    const { root } = await fresh();
    await writeFile(join(root, 'manifests', 'hello', 'data', 'words.txt'), 'changed\n');
    const opened = await open(root);
    const v = await verifySkillPin(opened.context, opened.context.lock.skills[0] as SkillPin);
    assert.equal(v.ok, false);
    assert.deepEqual(v.diagnostics.filter((d) => d.code === 'PIN_MODIFIED').map((d) => d.pointer), ['/skills/0/content_digest', '/skills/0/files_digest']);
    assert.notEqual(v.digests.content_digest?.actual, v.digests.content_digest?.expected);
    assert.equal(v.digests.manifest_digest?.actual, v.digests.manifest_digest?.expected);
    assert.ok(v.diagnostics.some((d) => d.code === 'CONTENT_DIGEST_MISMATCH' && d.line !== undefined));
  });

  it('an added file and a changed mode are modifications too', async () => {
    const { root } = await fresh();
    await writeFile(join(root, 'manifests', 'hello', 'extra.txt'), 'x');
    assert.ok((await verifyCodes(root)).codes.includes('PIN_MODIFIED'));
    await rm(join(root, 'manifests', 'hello', 'extra.txt'));
    assert.deepEqual((await verifyCodes(root)).codes, []);
    await chmod(join(root, 'manifests', 'hello', 'run.js'), 0o755);
    assert.ok((await verifyCodes(root)).codes.includes('PIN_MODIFIED'));
  });

  it('a symlink added to a bundle: BUNDLE_SYMLINK', async () => {
    const { root } = await fresh();
    await symlink('/etc/passwd', join(root, 'manifests', 'hello', 'passwd'));
    assert.ok((await verifyCodes(root)).codes.includes('BUNDLE_SYMLINK'));
  });

  it('unpinned bundle and pack under manifests/: PIN_UNPINNED', async () => {
    const { root } = await fresh();
    await cp(join(root, 'manifests', 'hello'), join(root, 'manifests', 'nested', 'copy'), { recursive: true });
    await writeFile(join(root, 'manifests', 'packs', 'strict.yaml'), 'profile: strict\nskill_pack_version: 0.1.0\n');
    const opened = await open(root);
    const r = await verifyLock(opened.context);
    assert.deepEqual(r.unpinned, ['manifests/nested/copy', 'manifests/packs/strict.yaml']);
    assert.deepEqual([...new Set(r.diagnostics.map((d) => d.code))], ['PIN_UNPINNED']);
  });

  it('duplicate pin: PIN_DUPLICATE', async () => {
    const { root } = await fresh();
    await editLock(root, (l) => ({ ...l, skills: [l.skills[0] as SkillPin, l.skills[0] as SkillPin] }));
    const r = await verifyCodes(root);
    assert.deepEqual(r.codes, ['PIN_DUPLICATE']);
    assert.ok(r.pointers.includes('/skills/1'));
  });

  it('identity mismatch: PIN_IDENTITY_MISMATCH', async () => {
    const { root } = await fresh();
    await editLock(root, (l) => ({ ...l, skills: [{ ...(l.skills[0] as SkillPin), skill_version: '0.2.0' }] }));
    const r = await verifyCodes(root);
    assert.deepEqual(r.codes, ['PIN_IDENTITY_MISMATCH']);
    assert.deepEqual(r.pointers, ['/skills/0/skill_version']);
  });

  it('source outside the project, by path or by symlink: PIN_SOURCE_INVALID', async () => {
    const { root } = await fresh();
    await editLock(root, (l) => ({ ...l, skills: [{ ...(l.skills[0] as SkillPin), source: '../elsewhere' }] }));
    assert.ok((await verifyCodes(root)).codes.includes('PIN_SOURCE_INVALID'));
    const p2 = await fresh();
    const outside = await makeProject();
    roots.push(outside);
    await rename(join(p2.root, 'manifests', 'hello'), join(outside, 'moved'));
    await symlink(join(outside, 'moved'), join(p2.root, 'manifests', 'hello'));
    assert.ok((await verifyCodes(p2.root)).codes.includes('PIN_SOURCE_INVALID'));
  });

  it('a source that is a loop of symbolic links: PIN_SOURCE_INVALID at the pin, not an internal error', async () => {
    const { root } = await fresh();
    await rm(join(root, 'manifests', 'hello'), { recursive: true });
    await symlink('hello.b', join(root, 'manifests', 'hello'));
    await symlink('hello', join(root, 'manifests', 'hello.b'));
    const r = await verifyCodes(root);
    assert.ok(r.codes.includes('PIN_SOURCE_INVALID'), r.codes.join(' '));
    assert.ok(r.pointers.includes('/skills/0/source'));
  });

  it('a project directory that cannot be read: INPUT_UNREADABLE naming it, not an internal error', async () => {
    const { root } = await fresh();
    const refusing = {
      readdir: (path: string) => Promise.reject(Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: 'EACCES' })),
    };
    await assert.rejects(findBundles(root, 'manifests', refusing), (err: unknown) => {
      assert.ok(isSkillctlError(err));
      assert.equal(err.code, 'INPUT_UNREADABLE');
      assert.match(err.message, /manifests: EACCES$/);
      return true;
    });
  });

  it('invalid lock: LOCK_INVALID with a pointer; unreadable lock: LOCK_UNREADABLE', async () => {
    const { root } = await fresh();
    const path = join(root, 'pins', 'skills.lock.json');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"min_signers": 0', '"min_signers": -1'));
    assert.deepEqual((await verifyCodes(root)).pointers, ['/min_signers']);
    await writeFile(path, text.replace('"skills": [', '"skills": [}'));
    assert.deepEqual((await verifyCodes(root)).codes, ['LOCK_UNREADABLE']);
    await writeFile(path, '{"neither": true}\n');
    assert.deepEqual((await verifyCodes(root)).codes, ['LOCK_INVALID']);
    await writeFile(path, text.replace(/\n$/, ''));
    assert.deepEqual((await verifyCodes(root)).codes, ['LOCK_NOT_CANONICAL']);
    await rm(path);
    await assert.rejects(openLock(path), { code: 'LOCK_UNREADABLE' });
  });
});

describe('verify-pins signatures', () => {
  let p: PinnedProject;
  before(async () => {
    p = await pinnedProject(['alice', 'bob']);
  });
  after(async () => removeDir(p.root));
  const sigPath = (): string => join(p.root, 'manifests', 'hello', 'signatures.json');

  it('a signature removed: SIGNATURE_MISSING and TOO_FEW_SIGNERS (and files_digest)', async () => {
    const original = await readFile(sigPath(), 'utf8');
    const doc = JSON.parse(original) as { signatures: { signer: string }[] };
    doc.signatures = doc.signatures.filter((s) => s.signer !== 'bob');
    await writeFile(sigPath(), JSON.stringify(doc, null, 2) + '\n');
    assert.deepEqual((await verifyCodes(p.root)).codes, ['PIN_MODIFIED', 'SIGNATURE_MISSING', 'TOO_FEW_SIGNERS']);
    await writeFile(sigPath(), original);
    assert.deepEqual((await verifyCodes(p.root)).codes, []);
  });

  it('min_signers raised above the signers: TOO_FEW_SIGNERS', async () => {
    assert.deepEqual((await verifyCodes(p.root, { minSigners: 3 })).codes, ['TOO_FEW_SIGNERS']);
  });

  it('two signers sharing one key count once: TOO_FEW_SIGNERS', async () => {
    const q = await makeProject();
    try {
      const keys = await makeKeys(q, ['alice']);
      const pub = JSON.parse(await readFile(join(q, 'pins', 'public-keys.json'), 'utf8')) as Record<string, string>;
      await writeFile(join(q, 'pins', 'public-keys.json'), JSON.stringify({ ...pub, mallory: pub.alice }, null, 2) + '\n');
      const out = await pinPaths(q, { sign: { alice: keys.alice as never, mallory: keys.alice as never }, minSigners: 2 });
      assert.deepEqual([...new Set(out.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))], ['TOO_FEW_SIGNERS']);
    } finally {
      await removeDir(q);
    }
  });

  it('a signer without a key, or a foreign signature: SIGNER_UNKNOWN / SIGNER_UNEXPECTED', async () => {
    const original = await readFile(sigPath(), 'utf8');
    const doc = JSON.parse(original) as { signatures: { signer: string; algorithm: string; signature: string }[] };
    doc.signatures.push({ ...(doc.signatures[0] as { signer: string; algorithm: string; signature: string }), signer: 'carol' });
    await writeFile(sigPath(), JSON.stringify(doc, null, 2) + '\n');
    assert.ok((await verifyCodes(p.root)).codes.includes('SIGNER_UNKNOWN'));
    await writeFile(sigPath(), original);
    await editLock(p.root, (l) => ({ ...l, skills: [{ ...(l.skills[0] as SkillPin), signers: ['alice'] }] }));
    assert.deepEqual((await verifyCodes(p.root)).codes, ['SIGNER_UNEXPECTED']);
    await editLock(p.root, (l) => ({ ...l, skills: [{ ...(l.skills[0] as SkillPin), signers: ['alice', 'bob'] }] }));
  });

  it('signatures over another manifest, a non-ed25519 algorithm, a duplicate signer: SIGNATURES_INVALID', async () => {
    const original = await readFile(sigPath(), 'utf8');
    for (const edit of [
      (s: string) => s.replace(/"manifest_hash": "sha256:[0-9a-f]{4}/, '"manifest_hash": "sha256:0000'),
      (s: string) => s.replace('"ed25519"', '"rsa"'),
      (s: string) => s.replace('"signer": "bob"', '"signer": "alice"'),
    ]) {
      await writeFile(sigPath(), edit(original));
      assert.ok((await verifyCodes(p.root)).codes.includes('SIGNATURES_INVALID'));
    }
    await writeFile(sigPath(), original);
  });

  it('keys file changed or missing: KEYS_DIGEST_MISMATCH / KEYS_INVALID, and no signature verifies', async () => {
    const keys = join(p.root, 'pins', 'public-keys.json');
    const original = await readFile(keys);
    await writeFile(keys, original.toString().replace('\n}', ',\n  "eve": "A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg="\n}'));
    assert.deepEqual((await verifyCodes(p.root)).codes, ['KEYS_DIGEST_MISMATCH']);
    await rm(keys);
    assert.deepEqual((await verifyCodes(p.root)).codes, ['KEYS_INVALID']);
    await writeFile(keys, original);
    assert.deepEqual((await verifyCodes(p.root)).codes, []);
  });
});

describe('archive pins and the run engine API', () => {
  let root: string;
  before(async () => {
    root = await makeProject();
    await mkdir(join(root, 'dist'));
    const packed = await packBundle(join(root, 'manifests', 'hello'), join(root, 'dist'));
    assert.equal(packed.ok, true);
  });
  after(async () => removeDir(root));

  it('pins an archive with its archive digest, verifies it, and finds it by id', async () => {
    const out = await pinPaths(root, { paths: ['dist/demo.hello-0.1.0.tgz'] });
    assert.equal(out.ok, true, JSON.stringify(out.diagnostics));
    const { context } = await open(root);
    const found = findPin(context.lock, 'demo.hello');
    assert.equal(found.ok, true);
    const pin = found.value as SkillPin;
    assert.equal(pin.source, 'dist/demo.hello-0.1.0.tgz');
    assert.match(pin.archive_digest ?? '', /^sha256:/);
    const v = await verifySkillPin(context, pin);
    assert.equal(v.ok, true, JSON.stringify(v.diagnostics));
    assert.deepEqual((await v.source?.list())?.files.map((f) => f.path), ['data/words.txt', 'run.js', 'skill.yaml']);
    const again = await verifySourceAgainstPin(context, pin, await openArchive(join(root, 'dist', 'demo.hello-0.1.0.tgz')));
    assert.equal(again.ok, true);
    assert.deepEqual(findPin(context.lock, 'demo.hello', '9.9.9').diagnostics.map((d) => d.code), ['PIN_NOT_FOUND']);
  });

  it('a changed archive: PIN_MODIFIED at archive_digest', async () => {
    const path = join(root, 'dist', 'demo.hello-0.1.0.tgz');
    const original = await readFile(path);
    const changed = Buffer.from(original);
    changed[changed.length - 1] = (changed[changed.length - 1] as number) ^ 1;
    await writeFile(path, changed);
    const r = await verifyCodes(root);
    assert.ok(r.codes.includes('PIN_MODIFIED') && r.pointers.includes('/skills/0/archive_digest'));
    await writeFile(path, original);
  });

  it('several pinned versions without a version asked: PIN_AMBIGUOUS', () => {
    const pin = { skill_id: 'a', skill_version: '1.0.0' } as SkillPin;
    const lock = { lock_version: 'skillctl.lock.v1', min_signers: 0, skills: [pin, { ...pin, skill_version: '2.0.0' }], packs: [] } as SkillctlLock;
    assert.deepEqual(findPin(lock, 'a').diagnostics.map((d) => d.code), ['PIN_AMBIGUOUS']);
    assert.equal(findPin(lock, 'a', '2.0.0').value?.skill_version, '2.0.0');
  });
});
