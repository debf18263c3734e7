/**
 * `pin`: add or update pins in a skillctl lock. Every target is validated and hashed first; then,
 * holding the lock file's write lock, the current lock is read, the trust anchors and identity
 * rules are checked, and the signatures.json files and the lock are written atomically. If
 * anything is refused, nothing is written, with one exception: signatures added by `--sign` are
 * kept when the only finding is that the pin does not yet have `min_signers` signatures, so that
 * the next signer can add theirs (the pin is written by the run that meets the threshold). Not for
 * a folder the lock already pins: a new signatures.json there would change the files its pin
 * covers and break a pin that verifies, so such a run writes nothing.
 */
import { readOrigins, recoveredDiagnostic, withPullLock, type Recovered } from '../mcp-skills/index.js';
import { dirname, join } from 'node:path';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { sha256 } from '../digest/index.js';
import { SkillctlError } from '../errors.js';
import { asOutputWrite, describeRefusal, readBounded, refusalCode, withFileLock, writeFileAtomic, type FileLockOptions } from '../fs/index.js';
import { KEYS_MAX_BYTES, loadPublicKeys, type PublicKey } from '../sign/index.js';
import { applyPins, type PinChange } from './apply.js';
import { emptyLock, LOCK_MAX_BYTES, loadLock, renderLock } from './lock.js';
import { DEFAULT_KEYS_FILE, type PackPin, type SkillctlLock, type SkillPin } from './model.js';
import { recordOrigins, type PulledOrigin } from './origins.js';
import { exists, sourcePath } from './paths.js';
import type { Prepared, Signing } from './prepare.js';
import { prepareAgain, preparedOf, prepareTargets, type PreparedTarget } from './prepare-targets.js';
import { PACKS_DIR } from './scan.js';
import { recordedSkillRoots, skillRootsOf } from './skill-roots.js';
import type { PinTarget } from './targets.js';
import { makeDirs } from '../fs/make-dirs.js';
import { pushAll } from '../findings.js';

export { applyPins, type PinChange } from './apply.js';

export interface PinRequest {
  readonly root: string;
  /** Absolute path of the lock, and how to name it in messages. */
  readonly lockPath: string;
  readonly lockFile: string;
  readonly targets: readonly PinTarget[];
  readonly signing: readonly Signing[];
  /** Allow changing the digests of an existing (id, version). */
  readonly replace: boolean;
  /** Record the public-keys file's current digest even though it differs from the pinned one. */
  readonly trustKeys: boolean;
  /** Set the lock's min_signers. */
  readonly minSigners?: number;
  /** Drop pins whose source under a skill root (or manifests/packs/) no longer exists (`--all`). */
  readonly prune: boolean;
  /** Set the lock's skill roots (`--skill-roots`), checked by the caller. */
  readonly skillRoots?: readonly string[];
  /** Origins to record on the pins of these sources (pulled skills); other pins keep theirs. */
  readonly origins?: ReadonlyMap<string, PulledOrigin>;
  readonly fileLock: FileLockOptions;
  /** Called after each target is read and digested (done of total), for a progress line. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface PinOutcome {
  readonly ok: boolean;
  readonly lockWritten: boolean;
  /** signatures.json files written (sources). */
  readonly signaturesWritten: readonly string[];
  readonly changes: readonly PinChange[];
  /** The skill roots before and after, when this run changed them. */
  readonly skillRoots?: { readonly from: readonly string[]; readonly to: readonly string[] };
  /** The lock as written (or as it would have been). */
  readonly lock?: SkillctlLock;
  readonly diagnostics: readonly Diagnostic[];
}

interface Decision {
  readonly lock: SkillctlLock;
  readonly changes: PinChange[];
  readonly diagnostics: Diagnostic[];
  /** An error other than too few signers: nothing may be written. */
  readonly blocked: boolean;
  /** No error at all: the lock may be written. */
  readonly complete: boolean;
  readonly skillRoots?: PinOutcome['skillRoots'];
}

const rootsOf = (d: Decision): Pick<Decision, 'skillRoots'> => (d.skillRoots !== undefined ? { skillRoots: d.skillRoots } : {});

/** The skill roots before and after, when they differ. */
function rootsChange(before: SkillctlLock, after: SkillctlLock): Pick<Decision, 'skillRoots'> {
  const from = skillRootsOf(before);
  const to = skillRootsOf(after);
  return from.join('\0') === to.join('\0') ? {} : { skillRoots: { from, to } };
}

/** A file that may be missing; a FIFO or device is refused before it is opened (read-bounded.ts). */
async function readOptional(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const r = await readBounded(path, { maxBytes });
  if (r.ok) return r.bytes;
  // ENOTDIR too: with `pins` a file there is no lock yet, and making the directory says why not.
  if (r.reason === 'missing') return undefined;
  throw new SkillctlError(refusalCode(r), describeRefusal(r, path));
}

/**
 * Removes pins whose source lies under one of the lock's skill roots (or, for a pack, in
 * manifests/packs/) and no longer exists. Sources elsewhere (an archive in dist/) are kept: only
 * what `--all` searches is known to be gone rather than not yet built.
 */
async function pruneMissing(root: string, lock: SkillctlLock): Promise<{ lock: SkillctlLock; changes: PinChange[] }> {
  const roots = skillRootsOf(lock);
  const under = (s: string, dirs: readonly string[]): boolean => dirs.some((d) => s.startsWith(`${d}/`));
  const changes: PinChange[] = [];
  const skills: SkillPin[] = [];
  for (const s of lock.skills) {
    if (under(s.source, roots) && !(await exists(sourcePath(root, s.source)))) changes.push({ kind: 'skill', id: s.skill_id, version: s.skill_version, source: s.source, action: 'removed' });
    else skills.push(s);
  }
  const packs: PackPin[] = [];
  for (const p of lock.packs) {
    if (under(p.source, [PACKS_DIR, ...roots]) && !(await exists(sourcePath(root, p.source)))) changes.push({ kind: 'pack', id: p.profile, version: p.skill_pack_version, source: p.source, action: 'removed' });
    else packs.push(p);
  }
  return { lock: { ...lock, skills, packs }, changes };
}

/** Which sources of `lock` that a prepared pin would move away from still exist. */
async function presentSources(root: string, lock: SkillctlLock, prepared: readonly Prepared[]): Promise<Set<string>> {
  const moving = prepared.flatMap((p) => {
    const old =
      p.kind === 'skill'
        ? lock.skills.find((s) => s.skill_id === p.entry.skill_id && s.skill_version === p.entry.skill_version)
        : lock.packs.find((s) => s.profile === p.entry.profile && s.skill_pack_version === p.entry.skill_pack_version);
    return old !== undefined && old.source !== p.entry.source ? [old.source] : [];
  });
  const present = new Set<string>();
  for (const s of moving) if (await exists(sourcePath(root, s))) present.add(s);
  return present;
}

/** Reads the lock to update; a missing lock is a new, empty one. */
async function currentLock(req: PinRequest): Promise<{ lock?: SkillctlLock; diagnostics: Diagnostic[] }> {
  const bytes = await readOptional(req.lockPath, LOCK_MAX_BYTES);
  if (bytes === undefined) return { lock: emptyLock(), diagnostics: [] };
  const load = loadLock(bytes, req.lockFile);
  // Canonical form is restored by rewriting; every other finding stops the update.
  const blocking = load.diagnostics.filter((d) => d.code !== 'LOCK_NOT_CANONICAL');
  if (load.loaded === undefined || hasErrors(blocking)) return { diagnostics: blocking };
  if (load.loaded.format !== 'skillctl') {
    return { diagnostics: [diag('LOCK_INVALID', 'this is a provenact lock; skillctl pin writes skillctl locks only', { file: req.lockFile, hint: 'name a new lock with --lock' })] };
  }
  return { lock: load.loaded.lock, diagnostics: [] };
}

/** The trust anchors to record: first use records them, a change needs --trust-keys. */
function trustKeys(lock: SkillctlLock, keysFile: string, keysBytes: Buffer | undefined, req: PinRequest): { lock: SkillctlLock; diagnostics: Diagnostic[] } {
  const actual = keysBytes !== undefined ? sha256(keysBytes) : undefined;
  if (actual === undefined) {
    if (lock.keys_digest === undefined) return { lock, diagnostics: [] };
    return { lock, diagnostics: [diag('KEYS_INVALID', `the lock pins ${keysFile} but it does not exist`, { file: join(dirname(req.lockFile), keysFile) })] };
  }
  if (lock.keys_digest === undefined || lock.keys_digest === actual || req.trustKeys) {
    return { lock: { ...lock, keys_file: keysFile, keys_digest: actual }, diagnostics: [] };
  }
  return {
    lock,
    diagnostics: [
      diag('KEYS_DIGEST_MISMATCH', `${keysFile} changed since the lock pinned it (${lock.keys_digest}, now ${actual})`, {
        file: req.lockFile,
        pointer: '/keys_digest',
        hint: 'review the change to the public keys, then pin with --trust-keys',
      }),
    ],
  };
}

export async function pin(req: PinRequest): Promise<PinOutcome> {
  const lockDir = dirname(req.lockPath);
  const before = await currentLock(req);
  const keysFile = before.lock?.keys_file ?? DEFAULT_KEYS_FILE;
  const keysBytes = await readOptional(join(lockDir, keysFile), KEYS_MAX_BYTES);
  let keys: ReadonlyMap<string, PublicKey> = new Map();
  const found: Diagnostic[] = [...before.diagnostics];
  if (keysBytes !== undefined) {
    const loaded = loadPublicKeys(keysBytes, join(dirname(req.lockFile), keysFile));
    pushAll(found, loaded.diagnostics);
    keys = loaded.keys;
  }
  const read = await readOrigins(req.root);
  const targets = hasErrors(found) ? [] : await prepareTargets({ root: req.root, keys, signing: req.signing, origins: read }, req.targets, req.onProgress);
  const refused = (run: readonly PreparedTarget[]): PinOutcome | undefined => {
    const all = [...found, ...run.flatMap((t) => t.diagnostics)];
    return hasErrors(all) ? { ok: false, lockWritten: false, signaturesWritten: [], changes: [], diagnostics: sortDiagnostics(all) } : undefined;
  };
  const early = refused(targets);
  if (early !== undefined) return early;

  const decide = async (current: SkillctlLock, run: readonly PreparedTarget[]): Promise<Decision> => {
    const prepared = preparedOf(run);
    const trusted = trustKeys(current, keysFile, keysBytes, req);
    let lock: SkillctlLock = req.minSigners !== undefined ? { ...trusted.lock, min_signers: req.minSigners } : trusted.lock;
    if (req.skillRoots !== undefined) {
      const { skill_roots: previous, ...rest } = lock;
      void previous;
      const recorded = recordedSkillRoots(req.skillRoots);
      lock = recorded !== undefined ? { ...rest, skill_roots: recorded } : rest;
    }
    // Warnings from validation stay in the report.
    const diagnostics: Diagnostic[] = [...found, ...run.flatMap((t) => t.diagnostics), ...trusted.diagnostics];
    const pinned = new Set(current.skills.map((e) => e.source));
    let breaksPin = false;
    for (const p of prepared) {
      if (p.kind === 'skill' && p.distinctKeys < lock.min_signers) {
        if (p.write !== undefined && pinned.has(p.entry.source)) breaksPin = true;
        diagnostics.push(
          diag('TOO_FEW_SIGNERS', `${p.entry.skill_id} ${p.entry.skill_version} has ${p.distinctKeys} valid signature(s) from distinct keys; the lock requires ${lock.min_signers}`, {
            file: `${p.entry.source}/signatures.json`,
            hint: pinned.has(p.entry.source)
              ? 'it is pinned already: nothing was written (its signatures.json would no longer match the pin); sign with enough keys in one run'
              : 'the pin is written once enough signers have run skillctl pin --sign',
          }),
        );
      }
    }
    const present = await presentSources(req.root, lock, prepared);
    const applied = applyPins(lock, prepared, req.replace, (s) => present.has(s));
    pushAll(diagnostics, applied.diagnostics);
    const recorded = recordOrigins(applied.lock, req.origins);
    pushAll(diagnostics, recorded.diagnostics);
    lock = recorded.lock;
    if (req.minSigners !== undefined) {
      // A raised threshold must hold for the pins this run does not touch too, or the lock written
      // would fail verify-pins at once.
      const touched = new Set(prepared.map((p) => p.entry.source));
      for (const [i, e] of lock.skills.entries()) {
        if (touched.has(e.source) || e.signers.length >= lock.min_signers) continue;
        breaksPin = true;
        diagnostics.push(
          diag('TOO_FEW_SIGNERS', `min_signers ${lock.min_signers} would fail the pin of ${e.skill_id} ${e.skill_version}, which names ${e.signers.length} signer(s)`, {
            file: req.lockFile,
            pointer: `/skills/${i}/signers`,
            hint: `sign ${e.source} with more keys (skillctl pin ${e.source} --sign …) in the same run, or keep the threshold`,
          }),
        );
      }
    }
    const changes = [...applied.changes];
    if (req.prune) {
      const pruned = await pruneMissing(req.root, lock);
      lock = pruned.lock;
      pushAll(changes, pruned.changes);
    }
    const errors = diagnostics.filter((d) => d.severity === 'error');
    return {
      lock,
      changes,
      diagnostics: sortDiagnostics(diagnostics),
      blocked: breaksPin || errors.some((d) => d.code !== 'TOO_FEW_SIGNERS'),
      complete: errors.length === 0,
      ...rootsChange(current, lock),
    };
  };
  // Decide once on the lock as read, so a refusal touches nothing, not even the write locks...
  const first = await decide(before.lock ?? emptyLock(), targets);
  if (first.blocked) return { ok: false, lockWritten: false, signaturesWritten: [], changes: first.changes, ...rootsOf(first), lock: first.lock, diagnostics: first.diagnostics };
  // ...then holding the write lock for pulls (when a folder is pinned: the records and the folders
  // pulls write are read as one pull left them, prepare-targets.ts), and the lock file's own.
  if (!req.targets.some((t) => t.kind === 'bundle')) return write(targets, undefined);
  return withPullLock(req.root, req.fileLock, async (recovered) => {
    const now = { root: req.root, keys, signing: req.signing, origins: await readOrigins(req.root) };
    return write(await prepareAgain(now, req.targets, targets, read, recovered !== undefined), recovered);
  });

  async function write(run: readonly PreparedTarget[], recovered: Recovered | undefined): Promise<PinOutcome> {
    const noted = recovered === undefined ? [] : [recoveredDiagnostic(req.root, recovered)];
    const again = refused(run);
    if (again !== undefined) return { ...again, diagnostics: sortDiagnostics([...noted, ...again.diagnostics]) };
    const writes = preparedOf(run).flatMap((p) => (p.kind === 'skill' && p.write !== undefined ? [{ source: p.entry.source, ...p.write }] : []));
    // The directory, the write lock and every file written are outputs: a read-only pins/ or a
    // .lck that is a directory is OUTPUT_UNWRITABLE naming the path (output-error.ts).
    await asOutputWrite(dirname(req.lockFile), () => makeDirs(lockDir));
    return withFileLock(join(lockDir, `.${req.lockPath.slice(lockDir.length + 1)}.lck`), req.fileLock, async () => {
      // ...and again, holding it, on the lock as it is now: another pin may have landed meanwhile.
      const current = await currentLock(req);
      if (current.lock === undefined) return { ok: false, lockWritten: false, signaturesWritten: [], changes: [], diagnostics: sortDiagnostics([...noted, ...current.diagnostics]) };
      const d = await decide(current.lock, run);
      const diagnostics = sortDiagnostics([...noted, ...d.diagnostics]);
      if (d.blocked) return { ok: false, lockWritten: false, signaturesWritten: [], changes: d.changes, ...rootsOf(d), lock: d.lock, diagnostics };
      for (const w of writes) await asOutputWrite(`${w.source}/signatures.json`, () => writeFileAtomic(w.path, w.text));
      const signaturesWritten = writes.map((w) => w.source);
      if (!d.complete) return { ok: false, lockWritten: false, signaturesWritten, changes: d.changes, ...rootsOf(d), lock: d.lock, diagnostics };
      await asOutputWrite(req.lockFile, () => writeFileAtomic(req.lockPath, renderLock(d.lock)));
      return { ok: true, lockWritten: true, signaturesWritten, changes: d.changes, ...rootsOf(d), lock: d.lock, diagnostics };
    });
  }
}
