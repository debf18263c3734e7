/**
 * From what the user typed to a bundle on disk that may run: a bundle directory or a `.tgz`
 * archive (as `skillctl pack` writes) as given, or a skill id looked up in the project's lock file
 * first and in the default bundle shipped with skillctl second. A pinned bundle must match its pin
 * (skill id, version, manifest and content digests, and an archive's own digest) and every bundle
 * must validate, or nothing runs (load-bundle.ts). An archive is read with the archive reader's
 * guards (no links, no path leaving the bundle, bounded size) and unpacked into a fresh scratch
 * directory, which the engine removes when the run ends (`cleanup`).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { skillNotFound } from './catalogue.js';
import { loadFull } from './full-load.js';
import { loadBundle, runRelevant, type Resolution, type SkillOrigin } from './load-bundle.js';
import { lockPinLookup, verifiedPinLookup, type PinLookup, type SkillPin } from './package-lock.js';
import type { BundleSnapshot, BundleSnapshots } from './snapshot.js';
import { compareVersions } from './versions.js';

export { compareVersions };

export { LOCK_PATH, lockPinLookup, verifiedPinLookup, type PinLookup, type SkillPin } from './package-lock.js';
export type { Resolution, ResolvedSkill, SkillOrigin } from './load-bundle.js';

export interface ResolveOptions {
  readonly cwd: string;
  /** The project root (holding pins/skills.lock.json), if there is one. */
  readonly projectRoot?: string;
  /** The skillctl package root: default bundles are in manifests/default/, pinned by its own lock. */
  readonly packageRoot?: string;
  readonly lookupPin?: PinLookup;
  /** Where an archive is unpacked for its run (a fresh directory inside it, removed afterwards). */
  readonly scratchDir?: string;
  /** Why nothing may be copied or unpacked in the scratch directory (skills may write there): such a target is not run. */
  readonly scratchRefusal?: Diagnostic;
  /** Build-time validation results of the default bundle (see snapshot.ts). */
  readonly defaultSnapshots?: BundleSnapshots;
  /**
   * Verify and run a private copy of a bundle directory, made in `scratchDir` (else the system's
   * temporary directory), not the directory itself (stage.ts). The run engine asks for it; a
   * caller that only reads the manifest (registry bindings) does not.
   */
  readonly stage?: boolean;
  /**
   * An archive given by path must hash to this (`run oci://…`: the layer's digest). The CLI wrote
   * it to a private scratch file after verifying it; the run reads it once more, and checks that
   * what it unpacks is what was verified, as it checks a pinned archive against its pin.
   */
  readonly archiveDigest?: Sha256Digest;
  /**
   * The pin whose origin named that archive (`run oci://…:TAG`): what it unpacks to must be the
   * skill the pin pins (id, version, digests), as a run by skill id checks its pin. The origin's
   * digest is the one field of a pin no offline check reads, so it alone must not decide what runs.
   */
  readonly archivePin?: SkillPin;
  /**
   * The target is a skill id and nothing else (a capability tool's binding): one that reads as a
   * path (`notes.show-0.1.0.tgz`, which the skill id pattern admits) is refused, never opened. A
   * binding names a skill the lock pins or skillctl ships; a file of that name in the working
   * directory is pinned by nothing, and any skill granted that directory can replace it.
   */
  readonly skillIdOnly?: boolean;
}

const SKILL_REF = /^([a-z0-9]+(?:[._-][a-z0-9]+)*)(?:@([0-9A-Za-z.+-]+))?$/;

/**
 * A target names a directory or an archive when it has a slash, starts with a dot or ends with
 * `.tgz` (what `skillctl pack` writes); otherwise it is a skill id.
 */
export function isPathTarget(target: string): boolean {
  return target.includes('/') || target.startsWith('.') || target.endsWith('.tgz');
}

const isArchivePath = (p: string): boolean => p.endsWith('.tgz');

/** Unpacks the archive at `path` into a fresh scratch directory and loads the bundle there. */
async function loadArchive(path: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, opts: ResolveOptions): Promise<Resolution> {
  const scratchDir = opts.scratchDir;
  const full = await loadFull();
  let archive: Awaited<ReturnType<typeof full.openArchive>>;
  try {
    archive = await full.openArchive(path, undefined, label);
  } catch (err) {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${label} is not a readable archive (${errnoCode(err) ?? 'unreadable'})`, { file: label })] };
  }
  if (pin?.archive_digest !== undefined && archive.archiveDigest !== pin.archive_digest) {
    return {
      diagnostics: [
        diag('RUN_PIN_MISMATCH', `${label} does not match its pin: the archive hashes to ${archive.archiveDigest}, pinned ${pin.archive_digest}`, {
          file: label,
          hint: 'restore the pinned archive, or re-pin it if the change is intended',
        }),
      ],
    };
  }
  if (opts.archiveDigest !== undefined && archive.archiveDigest !== opts.archiveDigest) {
    return {
      diagnostics: [
        diag('OCI_DIGEST_MISMATCH', `${label} hashes to ${archive.archiveDigest}, not the ${opts.archiveDigest} it was verified as`, { file: label }),
        diag('RUN_BUNDLE_INVALID', `${label} changed after it was verified; it is not run`, { file: label, hint: 'something else writes in the temporary directory: run again' }),
      ],
    };
  }
  if (scratchDir === undefined) {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${label} is an archive, and this run has no scratch directory to unpack it into`, { file: label })] };
  }
  let scratch: string;
  try {
    scratch = await mkdtemp(join(scratchDir, 'skillctl-run-'));
  } catch (err) {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${label} cannot be unpacked: no scratch directory in ${scratchDir} (${errnoCode(err) ?? 'error'})`, { file: label, hint: 'set TMPDIR to a writable directory' })] };
  }
  const cleanup = (): Promise<void> => rm(scratch, { recursive: true, force: true });
  const dir = join(scratch, 'bundle');
  let unpacked: Awaited<ReturnType<typeof archive.extractTo>>;
  try {
    unpacked = await archive.extractTo(dir);
  } catch (err) {
    await cleanup();
    throw err;
  }
  if (hasErrors(unpacked)) {
    await cleanup();
    const named = unpacked.map((d) => ({ ...d, file: d.file !== undefined ? `${label}/${d.file}` : label }));
    // ARCHIVE_TARGET_INVALID: the archive is sound, its unpacking in the scratch directory failed.
    const unwritable = unpacked.some((d) => d.code === 'ARCHIVE_TARGET_INVALID');
    const why = unwritable ? `could not be unpacked in ${scratchDir}` : 'is not a safe, readable archive';
    return { diagnostics: [...named, diag('RUN_BUNDLE_INVALID', `${label} ${why}; it is not run`, { file: label, ...(unwritable ? { hint: 'set TMPDIR to a short, writable directory with room' } : {}) })] };
  }
  const r = await loadBundle(dir, label, origin, pin);
  if (r.skill === undefined) await cleanup();
  return r.skill === undefined ? r : { ...r, cleanup };
}

function defaultSnapshot(opts: ResolveOptions, skillId: string): BundleSnapshot | undefined {
  return opts.defaultSnapshots !== undefined && Object.hasOwn(opts.defaultSnapshots, skillId) ? opts.defaultSnapshots[skillId] : undefined;
}

/** A bundle directory or an archive, by its name. */
function loadTarget(path: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, opts: ResolveOptions): Promise<Resolution> {
  if (opts.scratchRefusal !== undefined && (opts.stage === true || isArchivePath(path))) return Promise.resolve({ diagnostics: [opts.scratchRefusal] });
  return isArchivePath(path) ? loadArchive(path, label, origin, pin, opts) : loadBundle(path, label, origin, pin, undefined, stagingDir(opts));
}

/** Where a bundle directory is copied for its run, when the caller asks for a copy. */
function stagingDir(opts: ResolveOptions): string | undefined {
  return opts.stage === true ? (opts.scratchDir ?? tmpdir()) : undefined;
}

/** Resolves a run target (a bundle directory, a `.tgz` archive, or `skill_id[@version]`) to a bundle that may run. */
export async function resolveSkill(target: string, opts: ResolveOptions): Promise<Resolution> {
  if (isPathTarget(target)) {
    if (opts.skillIdOnly === true) {
      return { diagnostics: [diag('RUN_TARGET_INVALID', `${JSON.stringify(target)} reads as a path (an archive or a directory), and a tool binding names a skill id: it is not looked for on disk`, { hint: 'bind the tool to a skill id the lock pins (skillctl pin the archive first) or a built-in' })] };
    }
    const dir = isAbsolute(target) ? target : join(opts.cwd, target);
    const r = await loadTarget(dir, target, 'path', opts.archivePin, opts);
    return r.skill === undefined || opts.archivePin !== undefined ? r : { ...r, diagnostics: [...r.diagnostics, diag('RUN_UNPINNED', `${target} ran from its ${isArchivePath(dir) ? 'archive' : 'directory'}, not from a pin`, { file: target })] };
  }
  const m = SKILL_REF.exec(target);
  if (m === null) {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${JSON.stringify(target)} is not a skill id (e.g. fs.read_text or fs.read_text@0.1.0) or a path (use ./name for a directory)`)] };
  }
  const [, skillId, version] = m as unknown as [string, string, string | undefined];
  if (opts.projectRoot !== undefined) {
    const found = await (opts.lookupPin ?? verifiedPinLookup)(opts.projectRoot, skillId, version);
    if (hasErrors(found.diagnostics)) return { diagnostics: found.diagnostics };
    if (found.pin !== undefined) {
      const path = join(opts.projectRoot, found.pin.source);
      // A pin of the default bundle itself (as in skillctl's own repository) is checked against
      // the build's snapshot too: the snapshot stands for exactly those bytes wherever they are,
      // and, having no findings a run reports (info findings are not), names no file. Any other
      // bytes are validated in full.
      const snap = defaultSnapshot(opts, skillId);
      if (snap !== undefined && runRelevant(snap.diagnostics).length === 0 && !isArchivePath(path)) return loadBundle(path, found.pin.source, 'lock', found.pin, snap);
      return loadTarget(path, found.pin.source, 'lock', found.pin, opts);
    }
  }
  if (opts.packageRoot !== undefined) {
    const dir = join(opts.packageRoot, 'manifests', 'default', skillId);
    const exists = await stat(dir).then((s) => s.isDirectory(), () => false);
    if (exists) {
      const own = await (opts.lookupPin ?? lockPinLookup)(opts.packageRoot, skillId, version);
      if (hasErrors(own.diagnostics)) return { diagnostics: own.diagnostics };
      const r = await loadBundle(dir, `builtin:${skillId}`, 'default', own.pin, defaultSnapshot(opts, skillId));
      if (r.skill !== undefined && version !== undefined && r.skill.manifest.skill_version !== version) {
        const hint = 'skillctl run --list shows the versions of each skill id';
        return { identity: r.identity ?? {}, diagnostics: [diag('RUN_SKILL_NOT_FOUND', `the default bundle has ${skillId} ${r.skill.manifest.skill_version}, not ${version}`, { hint })] };
      }
      if (r.skill !== undefined && own.pin === undefined) {
        return { ...r, diagnostics: [...r.diagnostics, diag('RUN_UNPINNED', `${skillId} ran from the default bundle, which no lock pins`)] };
      }
      return r;
    }
  }
  return { diagnostics: [await skillNotFound(target, skillId, { ...opts, ownPin: opts.lookupPin ?? lockPinLookup })] };
}
