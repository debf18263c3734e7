/**
 * A bundle directory found for a run, checked before anything of it runs: validated (through the
 * build's snapshot when its bytes are the default bundle's, else in full; a provenact bundle as
 * provenact checks it), compared with its pin when it has one, and, when asked, copied first so
 * that the copy is what is verified and run (stage.ts). What resolve.ts calls for every target,
 * an unpacked archive included.
 */
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import type { LoaderError, Manifest, ManifestValidation } from '../manifest/index.js';
import { loadFull } from './full-load.js';
import type { SkillPin } from './package-lock.js';
import { isProvenactBundle, loadProvenactBundle } from './provenact-bundle.js';
import { matchSnapshot, type BundleSnapshot } from './snapshot.js';
import { stageBundle } from './stage.js';

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
export function runRelevant(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
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

/** Loads the bundle directory `dir` (named `label` in findings); copied into `stageIn` first when given. */
export async function loadBundle(dir: string, label: string, origin: SkillOrigin, pin: SkillPin | undefined, snapshot?: BundleSnapshot, stageIn?: string): Promise<Resolution> {
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
