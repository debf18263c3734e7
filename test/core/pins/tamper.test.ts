// The tamper test of the issue: for a pinned, signed bundle, change any single byte of any of its
// files, of the manifest, of signatures.json, of the keys file, of a pinned pack or of the lock:
// verification fails every time, with the code that names what changed. Every byte is tried
// (in-process, through the same core calls verify-pins makes); test/cli/verify-pins.test.ts runs
// a few of the same cases through the binary.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Code, Diagnostic } from '../../../src/core/diagnostics.js';
import { openLock, verifyLock, verifyPackPin, verifySkillPin, type PackPin, type SkillPin } from '../../../src/core/pins/index.js';
import { open, pinnedProject, type PinnedProject } from '../../helpers/pins.js';
import { removeDir } from '../../helpers/project.js';

const LOCK_FORM: Code[] = ['LOCK_UNREADABLE', 'LOCK_INVALID', 'LOCK_NOT_CANONICAL'];

/** Codes that name a change to the value of each lock field. */
const BY_FIELD: Record<string, Code[]> = {
  manifest_digest: ['PIN_MODIFIED'],
  content_digest: ['PIN_MODIFIED'],
  files_digest: ['PIN_MODIFIED'],
  pack_digest: ['PIN_MODIFIED'],
  file_digest: ['PIN_MODIFIED'],
  keys_digest: ['KEYS_DIGEST_MISMATCH'],
  keys_file: ['KEYS_INVALID'],
  skill_id: ['PIN_IDENTITY_MISMATCH'],
  skill_version: ['PIN_IDENTITY_MISMATCH'],
  profile: ['PIN_IDENTITY_MISMATCH'],
  skill_pack_version: ['PIN_IDENTITY_MISMATCH'],
  source: ['PIN_MISSING', 'PIN_SOURCE_INVALID', 'PIN_UNPINNED'],
  min_signers: ['TOO_FEW_SIGNERS'],
  signer: ['SIGNATURE_MISSING', 'SIGNER_UNEXPECTED'],
};

/** For each byte of the lock text, the codes that are right for a change there. */
function lockExpectations(text: string): Code[][] {
  const out: Code[][] = [];
  let field = '';
  for (const line of text.split(/(?<=\n)/)) {
    const m = /^\s*"([a-z_]+)": /.exec(line);
    const keyEnd = m === null ? 0 : m[0].length;
    if (m !== null) field = m[1] as string;
    const inSigners = m === null && /^\s*"[^"]*",?\n$/.test(line);
    for (let i = 0; i < Buffer.byteLength(line); i++) {
      const specific = inSigners ? BY_FIELD.signer : i >= keyEnd && m !== null ? BY_FIELD[field] : undefined;
      out.push([...LOCK_FORM, ...(specific ?? [])]);
    }
  }
  return out;
}

type Check = () => Promise<Set<string>>;

function errors(diagnostics: readonly Diagnostic[]): Set<string> {
  return new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.code));
}

/** All of verify-pins: open the lock (and keys) and verify every pin. */
function wholeLock(p: PinnedProject): Check {
  return async () => {
    const opened = await openLock(p.lockPath, { label: 'pins/skills.lock.json' });
    if (opened.context === undefined) return errors(opened.diagnostics);
    return errors((await verifyLock(opened.context)).diagnostics);
  };
}

/** One pin against a lock and keys opened once (what changes is the pinned files only). */
async function onePin(p: PinnedProject, kind: 'skill' | 'pack'): Promise<Check> {
  const { context } = await open(p.root);
  return async () =>
    errors(kind === 'skill' ? (await verifySkillPin(context, context.lock.skills[0] as SkillPin)).diagnostics : (await verifyPackPin(context, context.lock.packs[0] as PackPin)).diagnostics);
}

async function tamperEveryByte(p: PinnedProject, rel: string, check: Check, expected: (offset: number) => readonly Code[]): Promise<void> {
  const path = join(p.root, ...rel.split('/'));
  const original = await readFile(path);
  assert.deepEqual([...(await check())], []);
  try {
    for (let i = 0; i < original.length; i++) {
      const changed = Buffer.from(original);
      changed[i] = (changed[i] as number) ^ 0x01;
      await writeFile(path, changed);
      const found = await check();
      const want = expected(i);
      assert.ok(
        want.some((c) => found.has(c)),
        `${rel} byte ${i} (${JSON.stringify(String.fromCharCode(original[i] as number))}): expected one of ${want.join(', ')}, got ${[...found].join(', ') || 'no error'}`,
      );
    }
  } finally {
    await writeFile(path, original);
  }
}

// Each case has its own pinned project, so the cases run concurrently.
describe('tamper: every single-byte change fails verification with the right code', { concurrency: true }, () => {
  const projects: PinnedProject[] = [];
  const project = async (): Promise<PinnedProject> => {
    const p = await pinnedProject(['alice', 'bob']);
    projects.push(p);
    return p;
  };
  after(async () => Promise.all(projects.map((p) => removeDir(p.root))));

  for (const rel of ['manifests/hello/run.js', 'manifests/hello/data/words.txt', 'manifests/hello/skill.yaml', 'manifests/hello/signatures.json']) {
    it(`each byte of ${rel}: PIN_MODIFIED`, async () => {
      const p = await project();
      await tamperEveryByte(p, rel, await onePin(p, 'skill'), () => ['PIN_MODIFIED']);
    });
  }
  it('each byte of the pack: PIN_MODIFIED', async () => {
    const p = await project();
    await tamperEveryByte(p, 'manifests/packs/daily.yaml', await onePin(p, 'pack'), () => ['PIN_MODIFIED']);
  });
  it('each byte of the keys file: KEYS_DIGEST_MISMATCH', async () => {
    const p = await project();
    await tamperEveryByte(p, 'pins/public-keys.json', wholeLock(p), () => ['KEYS_DIGEST_MISMATCH']);
  });
  it('each byte of the lock: the code of the field changed, or of its form', async () => {
    const p = await project();
    const expectations = lockExpectations(await readFile(p.lockPath, 'utf8'));
    await tamperEveryByte(p, 'pins/skills.lock.json', wholeLock(p), (i) => expectations[i] as Code[]);
  });

  it('a signature changed to other valid base64: SIGNATURE_BAD', async () => {
    const p = await project();
    const path = join(p.root, 'manifests', 'hello', 'signatures.json');
    const doc = JSON.parse(await readFile(path, 'utf8')) as { signatures: { signature: string }[] };
    const first = doc.signatures[0] as { signature: string };
    first.signature = (first.signature[0] === 'A' ? 'B' : 'A') + first.signature.slice(1);
    await writeFile(path, JSON.stringify(doc, null, 2) + '\n');
    const found = await wholeLock(p)();
    assert.ok(found.has('SIGNATURE_BAD') && found.has('PIN_MODIFIED'), [...found].join(', '));
  });
});
