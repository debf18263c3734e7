// skillctl pin and keygen through the binary, and the two properties the issue asks to test:
// concurrent pin commands all land, and a pin killed mid-write leaves a valid lock behind.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadLock, type SkillctlLock } from '../../src/core/pins/index.js';
import { json, skillctl } from '../helpers/cli.js';
import { checkCliJson, wantsJson } from '../helpers/cli-json.js';
import { BIN } from '../helpers/paths.js';
import { editManifest, projects } from '../helpers/project.js';
import { addPdfNotes, PDF_NOTES, UNVERSIONED_DIR } from '../helpers/skill-md.js';

/** Copies manifests/hello to manifests/<id> with that skill_id and correct digests. */
async function addBundle(root: string, id: string): Promise<void> {
  const dir = join(root, 'manifests', id);
  await cp(join(root, 'manifests', 'hello'), dir, { recursive: true });
  await editManifest(dir, (t) => t.replace('skill_id: demo.hello', `skill_id: demo.${id}`));
}

function runAsync(args: string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('close', (code) => {
      if (code !== null && wantsJson(args)) checkCliJson(args, stdout);
      resolve({ code, stdout });
    });
  });
}

async function lockOf(root: string): Promise<SkillctlLock> {
  const load = loadLock(await readFile(join(root, 'pins', 'skills.lock.json')), 'lock');
  assert.deepEqual(load.diagnostics, []);
  return load.loaded?.lock as SkillctlLock;
}

describe('skillctl pin', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('pin --all writes the lock; --json lists the changes; verify-pins then passes', async () => {
    const root = await project();
    const r = skillctl(['pin', '--all', '--json'], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const doc = json<{ lock_written: boolean; changes: { id: string; action: string }[] }>(r);
    assert.equal(doc.lock_written, true);
    assert.deepEqual(doc.changes.map((c) => [c.id, c.action]), [
      ['demo.hello', 'added'],
      ['daily', 'added'],
    ]);
    assert.equal(skillctl(['verify-pins'], { cwd: join(root, 'manifests', 'hello') }).code, 0);
  });

  it('usage errors exit 2: nothing to pin, --sign without --signer, a path outside the project', async () => {
    const root = await project();
    assert.equal(skillctl(['pin'], { cwd: root }).code, 2);
    assert.equal(skillctl(['pin', '--sign', 'k.key', 'manifests/hello'], { cwd: root }).code, 2);
    const outside = skillctl(['pin', '--json', '--lock', 'pins/skills.lock.json', '/tmp'], { cwd: root });
    assert.equal(outside.code, 1);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(outside).diagnostics.map((d) => d.code), ['PIN_SOURCE_INVALID']);
    assert.equal(skillctl(['pin', 'manifests/absent'], { cwd: root }).code, 2);
  });

  it('keygen writes a 0600 secret key and the public key; pin --sign signs and pins', async () => {
    const root = await project();
    const k = skillctl(['keygen', '--signer', 'alice', '--json'], { cwd: root });
    assert.equal(k.code, 0, k.stdout);
    const doc = json<{ secret_key_file: string; public_key: string }>(k);
    assert.equal((await stat(join(root, doc.secret_key_file))).mode & 0o777, 0o600);
    assert.equal(JSON.parse(await readFile(join(root, 'pins', 'public-keys.json'), 'utf8')).alice, doc.public_key);
    const again = skillctl(['keygen', '--signer', 'alice', '--json'], { cwd: root });
    assert.equal(again.code, 2);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(again).diagnostics.map((d) => d.code), ['KEY_EXISTS']);
    const bad = skillctl(['keygen', '--signer', 'bad/id', '--json'], { cwd: root });
    assert.equal(bad.code, 2);
    assert.equal(json<{ error: { code: string } }>(bad).error.code, 'SIGNER_ID_INVALID');
    const r = skillctl(['pin', '--all', '--sign', doc.secret_key_file, '--signer', 'alice', '--min-signers', '1'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((await lockOf(root)).skills[0]?.signers, ['alice']);
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
  });

  it('four pin commands at once all land', async () => {
    const root = await project();
    const ids = ['b1', 'b2', 'b3', 'b4'];
    for (const id of ids) await addBundle(root, id);
    const runs = await Promise.all(ids.map((id) => runAsync(['pin', `manifests/${id}`], root)));
    assert.deepEqual(runs.map((r) => r.code), [0, 0, 0, 0], runs.map((r) => r.stdout).join('\n'));
    assert.deepEqual((await lockOf(root)).skills.map((s) => s.skill_id), ids.map((id) => `demo.${id}`));
    assert.deepEqual((await readdir(join(root, 'pins'))).filter((f) => f.startsWith('.')), []);
  });

  it('a pin killed at any moment leaves the old or the new lock, never a broken one', async () => {
    const root = await project();
    assert.equal(skillctl(['pin', 'manifests/hello'], { cwd: root }).code, 0);
    const old = await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8');
    await addBundle(root, 'late');
    for (let delay = 0; delay < 400; delay += 25) {
      const child = spawn(process.execPath, [BIN, 'pin', 'manifests/late', '--replace'], { cwd: root, stdio: 'ignore' });
      const closed = new Promise((r) => child.on('close', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await closed;
      const now = await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8');
      const lock = await lockOf(root);
      if (lock.skills.length === 1) assert.equal(now, old);
      else assert.deepEqual(lock.skills.map((s) => s.skill_id), ['demo.hello', 'demo.late']);
    }
    // Whatever the kills left (a stale write lock, temporary files), the next pin completes.
    const r = skillctl(['pin', 'manifests/late'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal((await lockOf(root)).skills.length, 2);
    const v = skillctl(['verify-pins', '--json'], { cwd: root });
    assert.deepEqual(json<{ unpinned: string[] }>(v).unpinned, ['manifests/packs/daily.yaml']);
  });

  it('a stale write lock of a dead process and a leftover temporary file do not block pin', async () => {
    const root = await project();
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    const before = await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const { hostname } = await import('node:os');
    await writeFile(join(root, 'pins', '.skills.lock.json.lck'), JSON.stringify({ pid: Number(dead.stdout), hostname: hostname(), token: 'dead' }));
    await writeFile(join(root, 'pins', '.skills.lock.json.99999.abcdef.tmp'), '{"half": ');
    assert.equal(await readFile(join(root, 'pins', 'skills.lock.json'), 'utf8'), before);
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
    await addBundle(root, 'more');
    const r = skillctl(['pin', 'manifests/more'], { cwd: root, timeoutMs: 20_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal((await lockOf(root)).skills.length, 2);
  });
});

describe('skillctl pin of a SKILL.md folder', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('pins it as kind "agent-skill" (by folder or by its SKILL.md); verify-pins passes', async () => {
    const root = await project();
    await addPdfNotes(root);
    const r = skillctl(['pin', '--json', 'manifests/pdf-notes/SKILL.md'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(json<{ changes: { id: string; action: string }[] }>(r).changes.map((c) => [c.id, c.action]), [['pdf-notes', 'added']]);
    const entry = (await lockOf(root)).skills.find((p) => p.skill_id === 'pdf-notes');
    assert.equal(entry?.kind, 'agent-skill');
    assert.equal(entry?.source, 'manifests/pdf-notes');
    assert.equal(entry?.manifest_digest, PDF_NOTES.manifest_digest);
    assert.equal(skillctl(['pin', 'manifests/hello', 'manifests/packs/daily.yaml'], { cwd: root }).code, 0);
    const v = skillctl(['verify-pins'], { cwd: root });
    assert.equal(v.code, 0, v.stdout + v.stderr);
  });

  it('pin --all finds SKILL.md folders under manifests/ as well as bundles', async () => {
    const root = await project();
    await addPdfNotes(root);
    assert.equal(skillctl(['pin', '--all'], { cwd: root }).code, 0);
    assert.deepEqual((await lockOf(root)).skills.map((p) => [p.skill_id, p.kind ?? 'bundle']), [
      ['demo.hello', 'bundle'],
      ['pdf-notes', 'agent-skill'],
    ]);
  });

  it('without metadata.version: exit 1, AGENT_SKILL_VERSION_REQUIRED, no lock written', async () => {
    const root = await project();
    await cp(UNVERSIONED_DIR, join(root, 'manifests', 'pdf-notes'), { recursive: true });
    const r = skillctl(['pin', '--json', 'manifests/pdf-notes'], { cwd: root });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(json<{ diagnostics: { code: string }[] }>(r).diagnostics.map((d) => d.code), ['AGENT_SKILL_VERSION_REQUIRED']);
    await assert.rejects(readFile(join(root, 'pins', 'skills.lock.json')), { code: 'ENOENT' });
  });

  it('pin --sign signs the derived digest; verify-pins checks it, and a tampered signature fails with SIGNATURE_BAD', async () => {
    const root = await project();
    const dir = await addPdfNotes(root);
    const k = json<{ secret_key_file: string }>(skillctl(['keygen', '--signer', 'alice', '--json'], { cwd: root }));
    const r = skillctl(['pin', 'manifests/pdf-notes', '--sign', k.secret_key_file, '--signer', 'alice', '--min-signers', '1'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((await lockOf(root)).skills[0]?.signers, ['alice']);
    const sigPath = join(dir, 'signatures.json');
    const sigs = JSON.parse(await readFile(sigPath, 'utf8')) as { manifest_hash: string; signatures: { signature: string }[] };
    assert.equal(sigs.manifest_hash, PDF_NOTES.manifest_digest);
    const only = ['verify-pins', '--json'];
    const ok = skillctl(only, { cwd: root });
    assert.deepEqual(json<{ skills: { skill_id: string; ok: boolean; signers: string[] }[] }>(ok).skills.map((x) => [x.skill_id, x.ok, x.signers]), [['pdf-notes', true, ['alice']]]);
    const sig = sigs.signatures[0] as { signature: string };
    sig.signature = (sig.signature.startsWith('A') ? 'B' : 'A') + sig.signature.slice(1);
    await writeFile(sigPath, JSON.stringify(sigs, null, 2) + '\n');
    const bad = skillctl(only, { cwd: root });
    assert.equal(bad.code, 1);
    assert.ok(json<{ diagnostics: { code: string }[] }>(bad).diagnostics.some((d) => d.code === 'SIGNATURE_BAD'));
  });

  it('a .tgz from pack of a SKILL.md folder pins (with archive_digest) and verifies', async () => {
    const root = await project();
    await addPdfNotes(root);
    assert.equal(skillctl(['pack', 'manifests/pdf-notes', '--out', 'vendor'], { cwd: root }).code, 0);
    const r = skillctl(['pin', 'vendor/pdf-notes-1.2.0.tgz', 'manifests/hello', 'manifests/packs/daily.yaml'], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const entry = (await lockOf(root)).skills.find((p) => p.skill_id === 'pdf-notes');
    assert.equal(entry?.kind, 'agent-skill');
    assert.equal(entry?.archive_digest, PDF_NOTES.tgz_digest);
    assert.equal(entry?.manifest_digest, PDF_NOTES.manifest_digest);
    const v = skillctl(['verify-pins', '--json'], { cwd: root });
    // The folder the archive came from is still under manifests/ and not pinned itself.
    assert.deepEqual(json<{ unpinned: string[] }>(v).unpinned, ['manifests/pdf-notes']);
    await rm(join(root, 'manifests', 'pdf-notes'), { recursive: true });
    assert.equal(skillctl(['verify-pins'], { cwd: root }).code, 0);
  });
});
