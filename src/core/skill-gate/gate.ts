/**
 * The one gate pack and pin put a skill through, whatever its kind: a manifest bundle (skill.yaml
 * or skill.json at its root, skill.contract.v1) or an Agent Skills folder (SKILL.md and no
 * manifest). Each kind is validated by its own checker, in full, as `validate` does; what comes
 * out is the same for both: whether it passed, and the identity and digests a pin records and an
 * archive is named after.
 */
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import {
  agentSkillIdentity,
  findSkillMd,
  SKILL_MD_NAMES,
  validateAgentSkill,
  validateAgentSkillSource,
  type AgentSkillOptions,
  type AgentSkillValidation,
} from '../agent-skills/index.js';
import { archiveFormatOf, DEFAULT_ARCHIVE_BOUNDS } from '../archive/index.js';
import { MANIFEST_NAMES, openArchive, type ArchiveSource, type BundleDirOptions, type BundleListing, type BundleSource } from '../bundle/index.js';
import { diag, hasErrors, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { formatOf, unreadable, validateBundle, validateManifest, type ManifestValidation } from '../manifest/index.js';

/** `bundle`: a manifest bundle. `agent-skill`: an Agent Skills folder without a manifest. */
export type SkillKind = 'bundle' | 'agent-skill';

/** What a pin records and an archive is named after. */
export interface SkillIdentity {
  readonly skill_id: string;
  readonly skill_version: string;
  /** The manifest's digest, or for an Agent Skills folder the digest of its derived manifest. */
  readonly manifest_digest: Sha256Digest;
  readonly content_digest: Sha256Digest;
}

export interface SkillCheck {
  /** Undefined when the folder holds neither a manifest nor SKILL.md. */
  readonly kind?: SkillKind;
  /** True only when validation passed and the identity is complete. */
  readonly ok: boolean;
  readonly identity?: SkillIdentity;
  /** The full validation, as `validate` reports it. */
  readonly validation: ManifestValidation | AgentSkillValidation;
  readonly diagnostics: readonly Diagnostic[];
}

/** The kind of a folder from the names at its root: a manifest wins over SKILL.md. */
export function kindOfNames(names: readonly string[]): SkillKind | undefined {
  if (MANIFEST_NAMES.some((n) => names.includes(n))) return 'bundle';
  if (SKILL_MD_NAMES.some((n) => names.includes(n))) return 'agent-skill';
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return false;
    throw err;
  }
}

/** The kind of the folder `dir` (SKILL.md is found as `validate` finds it). */
export async function kindOfDir(dir: string): Promise<SkillKind | undefined> {
  for (const n of MANIFEST_NAMES) if (await isFile(join(dir, n))) return 'bundle';
  return 'diagnostic' in (await findSkillMd(dir)) ? undefined : 'agent-skill';
}

function fromManifest(validation: ManifestValidation): SkillCheck {
  const { skill_id, skill_version } = validation;
  const manifest = validation.digests.manifest.computed;
  const content = validation.digests.content.computed;
  const complete = validation.valid && skill_id !== undefined && skill_version !== undefined && manifest !== undefined && content !== undefined;
  return {
    kind: 'bundle',
    ok: complete,
    ...(complete ? { identity: { skill_id, skill_version, manifest_digest: manifest, content_digest: content } } : {}),
    validation,
    diagnostics: validation.diagnostics,
  };
}

function fromAgentSkill(validation: AgentSkillValidation): SkillCheck {
  const { identity, diagnostics } = agentSkillIdentity(validation);
  const all = diagnostics.length > 0 ? sortDiagnostics([...validation.diagnostics, ...diagnostics]) : validation.diagnostics;
  return { kind: 'agent-skill', ok: identity !== undefined && !hasErrors(all), ...(identity !== undefined ? { identity } : {}), validation, diagnostics: all };
}

/**
 * Validates the skill folder `dir` as its kind (`label` names it in findings). Agent Skills
 * options apply to a SKILL.md folder; a manifest bundle ignores them. `source` (with
 * `BundleDirOptions`): the directory source to validate through, which a pin then hashes through.
 */
export async function checkSkillDir(dir: string, label: string, opts: AgentSkillOptions & BundleDirOptions & { readonly dirName?: string } = {}): Promise<SkillCheck> {
  const kind = await kindOfDir(dir).catch(() => undefined);
  if (kind === 'agent-skill') return fromAgentSkill(await validateAgentSkill(dir, { ...opts, label }));
  // A manifest bundle, or nothing: validateBundle then says what is missing (BUNDLE_NO_MANIFEST).
  const validation = await validateBundle(dir, label, opts);
  return kind === 'bundle' ? fromManifest(validation) : { ok: false, validation, diagnostics: validation.diagnostics };
}

/**
 * Validates an archive file (a `.tgz` that `pack` writes, or a `.skill` file) as the skill it
 * holds: the archive guards of `run ARCHIVE` first (nothing is unpacked to disk), then the
 * skill's own checks. A `.skill` file's top-level folder is the folder its name must match.
 * A file that cannot be read is a finding with the reader's code.
 */
export async function checkSkillArchive(path: string, label: string, opts: AgentSkillOptions = {}): Promise<SkillCheck> {
  let source: ArchiveSource;
  try {
    source = await openArchive(path, DEFAULT_ARCHIVE_BOUNDS, label, archiveFormatOf(path) ?? 'tgz');
  } catch (err) {
    if (!(err instanceof SkillctlError)) throw err;
    const validation = unreadable(label, diag(err.code, err.message));
    return { ok: false, validation, diagnostics: validation.diagnostics };
  }
  return checkSkillSource(source, label, source.folder !== undefined ? { ...opts, dirName: source.folder } : opts);
}

/** Validates a skill read through `source` (an archive): its kind from the listing's root names. */
export async function checkSkillSource(
  source: BundleSource,
  label: string,
  opts: AgentSkillOptions & { readonly listing?: BundleListing; readonly dirName?: string } = {},
): Promise<SkillCheck> {
  const listing = opts.listing ?? (await source.list());
  const names = listing.files.map((f) => f.path);
  const kind = kindOfNames(names);
  if (kind === 'agent-skill') {
    return fromAgentSkill(await validateAgentSkillSource(source, { ...opts, label, listing }));
  }
  const present = MANIFEST_NAMES.filter((n) => names.includes(n));
  const listed = listing.diagnostics.map((x) => ({ ...x, file: x.file !== undefined ? `${label}/${x.file}` : label }));
  if (hasErrors(listing.diagnostics) && present.length === 0) {
    // A damaged archive lists nothing: why is the finding, not the manifest it therefore lacks.
    const validation = { ...unreadable(label, listed.find((d) => d.severity === 'error') as Diagnostic), diagnostics: sortDiagnostics(listed) };
    return { ok: false, validation, diagnostics: validation.diagnostics };
  }
  if (present.length !== 1) {
    const d =
      present.length === 0
        ? diag('BUNDLE_NO_MANIFEST', 'no skill.yaml, skill.json or SKILL.md at the root', { file: label })
        : diag('BUNDLE_AMBIGUOUS_MANIFEST', 'both skill.yaml and skill.json exist; keep exactly one', { file: label });
    const base = unreadable(label, d);
    const validation = { ...base, diagnostics: sortDiagnostics([...base.diagnostics, ...listed]) };
    return { ok: false, ...(present.length > 0 ? { kind } : {}), validation, diagnostics: validation.diagnostics };
  }
  const name = present[0] as string;
  const file = `${label}/${name}`;
  let bytes: Buffer;
  try {
    bytes = await source.read(name);
  } catch (err) {
    const validation = unreadable(file, diag('BUNDLE_UNREADABLE', `cannot read the manifest: ${errnoCode(err) ?? String(err)}`));
    return { kind: 'bundle', ok: false, validation, diagnostics: validation.diagnostics };
  }
  return fromManifest(await validateManifest(bytes, formatOf(name), { file, bundle: source, bundleLabel: label, listing }));
}
