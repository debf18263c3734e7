/**
 * From what the user typed to a bundle on disk that may run: a bundle directory or a `.tgz`
 * archive (as `skillctl pack` writes) as given, or a skill id looked up in the project's lock file
 * first and in the default bundle shipped with skillctl second. A pinned bundle must match its pin
 * (skill id, version, manifest and content digests, and an archive's own digest) and every bundle
 * must validate, or nothing runs. An archive is read with the archive reader's guards (no links,
 * no path leaving the bundle, bounded size) and unpacked into a fresh scratch directory, which the
 * engine removes when the run ends (`cleanup`).
 */
import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import type { LoaderError, Manifest, ManifestValidation } from '../manifest/index.js';
import { skillNotFound } from './catalogue.js';
import { loadFull } from './full-load.js';
import { lockPinLookup, verifiedPinLookup, type PinLookup, type SkillPin } from './package-lock.js';
import { matchSnapshot, type BundleSnapshot, type BundleSnapshots } from './snapshot.js';
import { stageBundle } from './stage.js';
import { compareVersions } from './versions.js';
import { isProvenactBundle, loadProvenactBundle } from './provenact-bundle.js';

export { compareVersions };

export { LOCK_PATH, lockPinLookup, verifiedPinLookup, type PinLookup, type SkillPin } from './package-lock.js';

export type SkillOrigin = 'path' | 'lock' | 'default';

export interface ResolvedSkill {
  readonly origin: SkillOrigin;
  /** Real path of the bundle directory. */
  readonly dir: string;
  readonly manifest: Manifest;
  /** How findings name the manifest file. */
  readonly file: string;
  readonly pin?: SkillPin;
}

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
}

export interface Resolution {
  readonly skill?: ResolvedSkill;
  /** Removes what resolving created (an unpacked archive); the engine calls it when the run ends. */
  readonly cleanup?: () => Promise<void>;
  /** What the run would have been about, when the bundle was found but refused. */
  readonly identity?: { readonly skill_id?: string; readonly skill_version?: string; readonly manifest_digest?: string; readonly content_digest?: string };
  /** The manifest loader's one error (`skill.loader_error.v1`), when the bundle failed validation. */
  readonly loaderError?: LoaderError;
  readonly diagnostics: readonly Diagnostic[];
}

const SKILL_REF = /^([a-z0-9]+(?:[._-][a-z0-9]+)*)(?:@([0-9A-Za-z.+-]+))?$/;

/**
 * A target names a directory or an archive when it has a slash, starts with a dot or ends with
 * `.tgz` (what `skillctl pack` writes); otherwise it is a skill id.
 */
export function isPathTarget(target: string): boolean {
  return target.includes('/') || target.startsWith('.') || target.endsWith('.tgz');
}

function identityOf(v: ManifestValidation): NonNullable<Resolution['identity']> {
  return {
    ...(v.skill_id !== undefined ? { skill_id: v.skill_id } : {}),
    ...(v.skill_version !== undefined ? { skill_version: v.skill_version } : {}),
    ...(v.digests.manifest.computed !== undefined ? { manifest_digest: v.digests.manifest.computed } : {}),
    ...(v.digests.content.computed !== undefined ? { content_digest: v.digests.content.computed } : {}),
  };
}

interface Checked {
  /** How findings name the manifest file. */
  readonly file: string;
  readonly manifest?: Manifest;
  readonly identity: NonNullable<Resolution['identity']>;
  readonly loaderError?: LoaderError;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The validation's errors and warnings: they decide or qualify the run. Its info findings
 * (determinism eligibility) describe the manifest, not this run; `skillctl validate` shows them.
 */
function runRelevant(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  return diagnostics.filter((d) => d.severity !== 'info');
}

async function validated(real: string, label: string, snapshot: BundleSnapshot | undefined): Promise<Checked> {
  const snap = snapshot !== undefined ? await matchSnapshot(real, snapshot) : undefined;
  if (snap !== undefined) {
    const { skill_id, skill_version } = snap.manifest;
    return { file: join(label, snap.manifest_file), manifest: snap.manifest, identity: { skill_id, skill_version, manifest_digest: snap.manifest_digest, content_digest: snap.content_digest }, diagnostics: runRelevant(snap.diagnostics) };
  }
  // Any other bundle is validated in full: the YAML parser and the validators load now.
  const v = await (await loadFull()).validateBundle(real, label);
  return {
    file: v.file,
    ...(v.manifest !== undefined && !hasErrors(v.diagnostics) ? { manifest: v.manifest } : {}),
    identity: identityOf(v),
    ...(v.loader_error !== undefined ? { loaderError: v.loader_error } : {}),
    diagnostics: runRelevant(v.diagnostics),
  };
}

async function load(dir: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, snapshot?: BundleSnapshot, stageIn?: string): Promise<Resolution> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${label} is not a bundle directory (${errnoCode(err) ?? 'unreadable'})`, { file: label })] };
  }
  return stageIn === undefined ? loadReal(real, label, origin, pin, snapshot) : loadStaged(real, label, origin, pin, stageIn);
}

/** Copies the bundle (stage.ts), then verifies the copy, which is what runs. */
async function loadStaged(real: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, scratchDir: string): Promise<Resolution> {
  const staged = await stageBundle(real, scratchDir);
  if ('dir' in staged) {
    const r = await loadReal(staged.dir, label, origin, pin);
    if (r.skill === undefined) await staged.cleanup();
    return r.skill === undefined ? r : { ...r, cleanup: staged.cleanup };
  }
  if (staged.kind === 'scratch') {
    return { diagnostics: [diag('RUN_TARGET_INVALID', `${label} cannot be copied for its run: ${staged.reason}`, { file: label, hint: 'set TMPDIR to a writable directory' })] };
  }
  // A bundle that cannot be copied is not run. Its findings are the validation's, read where it lies.
  const r = await loadReal(real, label, origin, pin);
  const why = staged.kind === 'changed' ? `${staged.file} changed while it was copied for the run: ${staged.reason}` : 'it changed while it was copied for the run';
  if (r.skill === undefined) return r;
  return { identity: r.identity ?? {}, diagnostics: [...r.diagnostics, diag('RUN_BUNDLE_INVALID', `${label} is not run: ${why}`, { file: label, hint: 'run it again once nothing else writes the bundle' })] };
}

async function loadReal(real: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, snapshot?: BundleSnapshot): Promise<Resolution> {
  // A provenact bundle (skill.wasm, manifest.json, signatures.json) runs as it is, checked as provenact checks it.
  const { file, manifest, identity, loaderError, diagnostics: found } = (await isProvenactBundle(real)) ? { file: join(label, 'manifest.json'), loaderError: undefined, ...(await loadProvenactBundle(real, label)) } : await validated(real, label, snapshot);
  const diagnostics: Diagnostic[] = [...found];
  if (manifest === undefined) {
    diagnostics.push(diag('RUN_BUNDLE_INVALID', `${label} is not a valid bundle; it is not run`, { file: label, hint: `skillctl validate ${label}` }));
    // The loader error says, as `validate` would, which finding the bundle is refused for.
    return { identity, ...(loaderError !== undefined ? { loaderError } : {}), diagnostics };
  }
  if (pin !== undefined) {
    const wrong: string[] = [];
    if (identity.skill_id !== pin.skill_id) wrong.push(`skill_id is ${identity.skill_id ?? '?'}, pinned ${pin.skill_id}`);
    if (identity.skill_version !== pin.skill_version) wrong.push(`skill_version is ${identity.skill_version ?? '?'}, pinned ${pin.skill_version}`);
    if (identity.manifest_digest !== pin.manifest_digest) wrong.push(`manifest_digest is ${identity.manifest_digest ?? '?'}, pinned ${pin.manifest_digest}`);
    if (identity.content_digest !== pin.content_digest) wrong.push(`content_digest is ${identity.content_digest ?? '?'}, pinned ${pin.content_digest}`);
    if (wrong.length > 0) {
      diagnostics.push(diag('RUN_PIN_MISMATCH', `${label} does not match its pin: ${wrong.join('; ')}`, { file: label, hint: 'restore the pinned bundle, or re-pin it if the change is intended' }));
      return { identity, diagnostics };
    }
  }
  return { skill: { origin, dir: real, manifest, file, ...(pin !== undefined ? { pin } : {}) }, identity, diagnostics };
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
  if (pin === undefined && opts.archiveDigest !== undefined && archive.archiveDigest !== opts.archiveDigest) {
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
    return { diagnostics: [...named, diag('RUN_BUNDLE_INVALID', `${label} is not a safe, readable archive; it is not run`, { file: label })] };
  }
  const r = await load(dir, label, origin, pin);
  if (r.skill === undefined) await cleanup();
  return r.skill === undefined ? r : { ...r, cleanup };
}

function defaultSnapshot(opts: ResolveOptions, skillId: string): BundleSnapshot | undefined {
  return opts.defaultSnapshots !== undefined && Object.hasOwn(opts.defaultSnapshots, skillId) ? opts.defaultSnapshots[skillId] : undefined;
}

/** A bundle directory or an archive, by its name. */
function loadTarget(path: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, opts: ResolveOptions): Promise<Resolution> {
  if (opts.scratchRefusal !== undefined && (opts.stage === true || isArchivePath(path))) return Promise.resolve({ diagnostics: [opts.scratchRefusal] });
  return isArchivePath(path) ? loadArchive(path, label, origin, pin, opts) : load(path, label, origin, pin, undefined, stagingDir(opts));
}

/** Where a bundle directory is copied for its run, when the caller asks for a copy. */
function stagingDir(opts: ResolveOptions): string | undefined {
  return opts.stage === true ? (opts.scratchDir ?? tmpdir()) : undefined;
}

/** Resolves a run target (a bundle directory, a `.tgz` archive, or `skill_id[@version]`) to a bundle that may run. */
export async function resolveSkill(target: string, opts: ResolveOptions): Promise<Resolution> {
  if (isPathTarget(target)) {
    const dir = isAbsolute(target) ? target : join(opts.cwd, target);
    const r = await loadTarget(dir, target, 'path', undefined, opts);
    return r.skill === undefined ? r : { ...r, diagnostics: [...r.diagnostics, diag('RUN_UNPINNED', `${target} ran from its ${isArchivePath(dir) ? 'archive' : 'directory'}, not from a pin`, { file: target })] };
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
      if (snap !== undefined && runRelevant(snap.diagnostics).length === 0 && !isArchivePath(path)) return load(path, found.pin.source, 'lock', found.pin, snap);
      return loadTarget(path, found.pin.source, 'lock', found.pin, opts);
    }
  }
  if (opts.packageRoot !== undefined) {
    const dir = join(opts.packageRoot, 'manifests', 'default', skillId);
    const exists = await stat(dir).then((s) => s.isDirectory(), () => false);
    if (exists) {
      const own = await (opts.lookupPin ?? lockPinLookup)(opts.packageRoot, skillId, version);
      if (hasErrors(own.diagnostics)) return { diagnostics: own.diagnostics };
      const r = await load(dir, `builtin:${skillId}`, 'default', own.pin, defaultSnapshot(opts, skillId));
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
