// Agent Skills (SKILL.md) folders pinned and verified in-process: `kind: "agent-skill"` entries,
// the derived manifest digest, every tamper case with its code and pointer, signatures, archives,
// and locks written before agent-skill pins existed.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadLock, openLock, renderLock, verifyLock, type SkillctlLock, type SkillPin } from '../../../src/core/pins/index.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { makeKeys, pinPaths } from '../../helpers/pins.js';
import { makeProject, removeDir } from '../../helpers/project.js';
import { addPdfNotes, PDF_NOTES, UNVERSIONED_DIR } from '../../helpers/skill-md.js';

const LOCK = 'pins/skills.lock.json';

async function readLock(root: string): Promise<SkillctlLock> {
  return JSON.parse(await readFile(join(root, LOCK), 'utf8')) as SkillctlLock;
}

async function verify(root: string): Promise<{ errors: [string, string][]; unpinned: readonly string[] }> {
  const opened = await openLock(join(root, LOCK), { label: LOCK });
  if (opened.context === undefined) return { errors: opened.diagnostics.map((d) => [d.code, d.pointer ?? d.file ?? '']), unpinned: [] };
  const r = await verifyLock(opened.context);
  const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d): [string, string] => [d.code, d.pointer ?? d.file ?? '']);
  return { errors: errors.sort((a, b) => (a.join() < b.join() ? -1 : 1)), unpinned: r.unpinned };
}

/** Replaces `from` with `to` in the folder's SKILL.md. */
async function editSkillMd(dir: string, from: string, to: string): Promise<void> {
  const md = join(dir, 'SKILL.md');
  const text = await readFile(md, 'utf8');
  assert.ok(text.includes(from));
  await writeFile(md, text.replace(from, to));
}

describe('agent-skill pins', () => {
  const roots: string[] = [];
  after(async () => Promise.all(roots.map(removeDir)));
  /** A fixture project with manifests/pdf-notes added, everything pinned. */
  const pinned = async (opts: { signers?: string[] } = {}): Promise<{ root: string; dir: string; index: number }> => {
    const root = await makeProject();
    roots.push(root);
    const dir = await addPdfNotes(root);
    const keys = opts.signers !== undefined ? await makeKeys(root, opts.signers) : undefined;
    const outcome = await pinPaths(root, { ...(keys !== undefined ? { sign: keys, minSigners: opts.signers?.length ?? 0 } : {}) });
    assert.equal(outcome.ok, true, JSON.stringify(outcome.diagnostics));
    const index = (await readLock(root)).skills.findIndex((p) => p.source === 'manifests/pdf-notes');
    assert.notEqual(index, -1);
    return { root, dir, index };
  };

  it('pin writes a kind "agent-skill" entry with name, metadata.version and the derived digest; a bundle entry has no kind', async () => {
    const { root, index } = await pinned();
    const lock = await readLock(root);
    const entry = lock.skills[index] as SkillPin;
    assert.deepEqual(
      { kind: entry.kind, skill_id: entry.skill_id, skill_version: entry.skill_version, manifest_digest: entry.manifest_digest, content_digest: entry.content_digest },
      { kind: 'agent-skill', skill_id: 'pdf-notes', skill_version: '1.2.0', manifest_digest: PDF_NOTES.manifest_digest, content_digest: PDF_NOTES.content_digest },
    );
    // No signatures.json: every file is content.
    assert.equal(entry.files_digest, PDF_NOTES.content_digest);
    const bundle = lock.skills.find((p) => p.source === 'manifests/hello') as SkillPin;
    assert.equal('kind' in bundle, false);
    assert.deepEqual(loadLock(await readFile(join(root, LOCK)), LOCK).diagnostics, []);
    assert.deepEqual(await verify(root), { errors: [], unpinned: [] });
  });

  it('an edited file: PIN_MODIFIED at content_digest, files_digest and the derived manifest_digest', async () => {
    const { root, dir, index } = await pinned();
    await writeFile(join(dir, 'references', 'GUIDE.md'), '# changed\n');
    assert.deepEqual((await verify(root)).errors, [
      ['PIN_MODIFIED', `/skills/${index}/content_digest`],
      ['PIN_MODIFIED', `/skills/${index}/files_digest`],
      ['PIN_MODIFIED', `/skills/${index}/manifest_digest`],
    ]);
  });

  it('a changed metadata.version or name: PIN_IDENTITY_MISMATCH at the field, with the digests', async () => {
    for (const [from, to, field] of [
      ['version: "1.2.0"', 'version: "1.2.1"', 'skill_version'],
      ['name: pdf-notes', 'name: pdf-notez', 'skill_id'],
    ] as const) {
      const { root, dir, index } = await pinned();
      await editSkillMd(dir, from, to);
      const { errors } = await verify(root);
      assert.ok(errors.some(([c, p]) => c === 'PIN_IDENTITY_MISMATCH' && p === `/skills/${index}/${field}`), JSON.stringify(errors));
      assert.deepEqual([...new Set(errors.map(([c]) => c))].sort(), ['PIN_IDENTITY_MISMATCH', 'PIN_MODIFIED']);
    }
  });

  it('metadata.version removed: PIN_IDENTITY_MISMATCH at skill_version', async () => {
    const { root, dir, index } = await pinned();
    await editSkillMd(dir, '  version: "1.2.0"\n', '');
    assert.ok((await verify(root)).errors.some(([c, p]) => c === 'PIN_IDENTITY_MISMATCH' && p === `/skills/${index}/skill_version`));
  });

  it('SKILL.md deleted: AGENT_SKILL_MD_MISSING, and the content no longer matches', async () => {
    const { root, dir, index } = await pinned();
    await rm(join(dir, 'SKILL.md'));
    assert.deepEqual((await verify(root)).errors, [
      ['AGENT_SKILL_MD_MISSING', 'manifests/pdf-notes'],
      ['PIN_MODIFIED', `/skills/${index}/content_digest`],
      ['PIN_MODIFIED', `/skills/${index}/files_digest`],
    ]);
  });

  it('signed: signatures.json signs the derived digest and verifies; a tampered signature is SIGNATURE_BAD', async () => {
    const { root, dir, index } = await pinned({ signers: ['alice'] });
    const entry = (await readLock(root)).skills[index] as SkillPin;
    assert.deepEqual(entry.signers, ['alice']);
    const sigPath = join(dir, 'signatures.json');
    const sigs = JSON.parse(await readFile(sigPath, 'utf8')) as { manifest_hash: string; signatures: { signature: string }[] };
    assert.equal(sigs.manifest_hash, PDF_NOTES.manifest_digest);
    assert.deepEqual(await verify(root), { errors: [], unpinned: [] });
    const sig = sigs.signatures[0] as { signature: string };
    const raw = Buffer.from(sig.signature, 'base64');
    raw[0] = (raw[0] as number) ^ 1;
    sig.signature = raw.toString('base64');
    await writeFile(sigPath, JSON.stringify(sigs, null, 2) + '\n');
    const codes = (await verify(root)).errors.map(([c]) => c);
    assert.ok(codes.includes('SIGNATURE_BAD'), codes.join());
  });

  it('signed, then SKILL.md edited: the signature no longer covers the folder', async () => {
    const { root, dir } = await pinned({ signers: ['alice'] });
    await editSkillMd(dir, 'Write the notes', 'Write short notes');
    const { errors } = await verify(root);
    // signatures.json names the old derived digest: it signs another folder, so no signer counts.
    assert.ok(errors.some(([c, p]) => c === 'SIGNATURES_INVALID' && p === '/manifest_hash'), JSON.stringify(errors));
    assert.deepEqual([...new Set(errors.map(([c]) => c))].sort(), ['PIN_MODIFIED', 'SIGNATURES_INVALID', 'SIGNATURE_MISSING', 'TOO_FEW_SIGNERS']);
  });

  it('a .tgz of a SKILL.md folder pins with its archive_digest and verifies; a changed archive is PIN_MODIFIED', async () => {
    const root = await makeProject();
    roots.push(root);
    await mkdir(join(root, 'vendor'));
    const packed = await packBundle((await addPdfNotes(root)), join(root, 'vendor'));
    await rm(join(root, 'manifests', 'pdf-notes'), { recursive: true });
    const outcome = await pinPaths(root, { paths: ['manifests/hello', 'manifests/packs/daily.yaml', 'vendor/pdf-notes-1.2.0.tgz'] });
    assert.equal(outcome.ok, true, JSON.stringify(outcome.diagnostics));
    const entry = (await readLock(root)).skills.find((p) => p.skill_id === 'pdf-notes') as SkillPin;
    assert.equal(entry.kind, 'agent-skill');
    assert.equal(entry.source, 'vendor/pdf-notes-1.2.0.tgz');
    assert.equal(entry.archive_digest, packed.digest);
    assert.equal(entry.manifest_digest, PDF_NOTES.manifest_digest);
    assert.deepEqual(await verify(root), { errors: [], unpinned: [] });
    const bytes = await readFile(packed.archive as string);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    await writeFile(packed.archive as string, bytes);
    assert.ok((await verify(root)).errors.some(([c]) => c === 'PIN_MODIFIED'));
  });

  it('an unpinned SKILL.md folder under manifests/ is reported; lowercase skill.md documents are not searched for', async () => {
    const { root } = await pinned();
    await cp(join(root, 'manifests', 'pdf-notes'), join(root, 'manifests', 'more', 'notes-copy'), { recursive: true });
    await mkdir(join(root, 'manifests', 'docs'));
    await writeFile(join(root, 'manifests', 'docs', 'skill.md'), '# not a skill\n');
    const r = await verify(root);
    assert.deepEqual(r.unpinned, ['manifests/more/notes-copy']);
    assert.deepEqual(r.errors, [['PIN_UNPINNED', 'manifests/more/notes-copy']]);
  });

  it('a folder without metadata.version is not pinned: AGENT_SKILL_VERSION_REQUIRED, the lock unchanged', async () => {
    const { root } = await pinned();
    const before = await readFile(join(root, LOCK), 'utf8');
    await cp(UNVERSIONED_DIR, join(root, 'manifests', 'loose', 'pdf-notes'), { recursive: true });
    const outcome = await pinPaths(root, { paths: ['manifests/loose/pdf-notes'] });
    assert.equal(outcome.ok, false);
    assert.ok(outcome.diagnostics.some((d) => d.code === 'AGENT_SKILL_VERSION_REQUIRED'));
    assert.equal(await readFile(join(root, LOCK), 'utf8'), before);
  });

  it('the lock schema: kind is only "agent-skill", and an agent-skill skill_id is a SKILL.md name', async () => {
    const { root, index } = await pinned();
    const lock = await readLock(root);
    const edit = async (over: Record<string, unknown>): Promise<string[]> => {
      const skills = lock.skills.map((p, i) => (i === index ? ({ ...p, ...over } as SkillPin) : p));
      await writeFile(join(root, LOCK), renderLock({ ...lock, skills }));
      return (await verify(root)).errors.map(([c, p]) => `${c} ${p}`);
    };
    assert.deepEqual(await edit({ kind: 'bundle' }), [`LOCK_INVALID /skills/${index}/kind`]);
    assert.ok((await edit({ skill_id: 'pdf.notes' })).includes(`LOCK_INVALID /skills/${index}/skill_id`));
  });

  it('a lock written before agent-skill pins (no kind anywhere) still loads and verifies', async () => {
    const root = await makeProject();
    roots.push(root);
    assert.equal((await pinPaths(root)).ok, true);
    const text = await readFile(join(root, LOCK), 'utf8');
    assert.equal(text.includes('"kind"'), false);
    assert.deepEqual(await verify(root), { errors: [], unpinned: [] });
  });
});
