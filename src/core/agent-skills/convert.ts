/**
 * `skillctl convert DIR`: an Agent Skills folder gets a skill.yaml (each script an entrypoint,
 * no permissions), or a skill.yaml bundle gets a SKILL.md (and, since SKILL.md is then one of its
 * files, new digests). Either way the folder is validated before and after; a conversion whose
 * result does not validate is a bug, and the files are restored.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { dirSource, foldName } from '../bundle/index.js';
import { diag, sortDiagnostics, type Diagnostic, type Result } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { createFileOrRefuse, readInputFile, writeFileAtomic } from '../fs/index.js';
import { findManifest, fixDigests, MANIFEST_MAX_BYTES, validateBundle } from '../manifest/index.js';
import type { NameCharset } from './model.js';
import type { ScriptRuntime } from './scripts.js';
import { agentSkillToManifest, scriptsOf, type RuntimeVersions } from './to-manifest.js';
import { manifestToSkillMd } from './to-skill-md.js';
import { findSkillMd, validateAgentSkill } from './validate.js';

export type ConvertTarget = 'manifest' | 'skill-md';

export interface ConvertRequest {
  /** Absolute path of the folder. */
  readonly dir: string;
  /** How to name the folder in messages and results. */
  readonly label: string;
  /** What to write; needed when the folder holds both SKILL.md and a manifest. */
  readonly to?: ConvertTarget;
  /** Replace the file to be written when it exists. */
  readonly force: boolean;
  readonly nameCharset: NameCharset;
  /** skill_id and skill_version of a new manifest (default: the SKILL.md name, metadata.version). */
  readonly id?: string;
  readonly skillVersion?: string;
  /** name of a new SKILL.md (default: from the folder name). */
  readonly name?: string;
  /** runtime_version for the scripts of `runtime`: the caller's flag, or its look at the machine. */
  readonly runtimeVersion: (runtime: ScriptRuntime) => string | undefined;
}

export interface ConvertedEntrypoint {
  readonly entrypoint_id: string;
  readonly runtime: string;
  readonly runtime_version: string;
  readonly command: readonly string[];
}

export type Converted =
  | {
      /** The file written, under the folder's label. */
      readonly written: string;
      readonly format: 'manifest';
      readonly skill_id: unknown;
      readonly skill_version: unknown;
      readonly manifest_digest: unknown;
      readonly content_digest: unknown;
      readonly entrypoints: readonly ConvertedEntrypoint[];
    }
  | {
      readonly written: string;
      readonly format: 'skill-md';
      readonly name: string;
      /** The manifest whose digests were updated. */
      readonly manifest: string;
      readonly manifest_digest: Sha256Digest | null;
      readonly content_digest: Sha256Digest | null;
    };

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Writes `path`: a new file atomically and exclusively, or with `force` over the old one. */
async function write(path: string, text: string, force: boolean): Promise<void> {
  if (force) await writeFileAtomic(path, text);
  else await createFileOrRefuse(path, text);
}

/**
 * An entry of `dir` other than `name` that macOS and Windows store as the same file (`Skill.md`
 * for `SKILL.md`): on Linux the new file made two that a checkout there keeps as one, and there
 * writing `name` replaced the user's file. Read from the folder itself, so a file the digests
 * leave out (`.skillignore`) counts too.
 */
async function foldedTwin(dir: string, name: string, file: string): Promise<Diagnostic | undefined> {
  const key = foldName(name);
  const twin = (await readdir(dir)).find((e) => e !== name && foldName(e) === key);
  if (twin === undefined) return undefined;
  return diag('BUNDLE_PATH_COLLISION', `${twin} and ${name} are one file on a file system that ignores case or normalises names (macOS, Windows)`, {
    file,
    hint: `rename or remove ${twin}: convert writes ${name}`,
  });
}

function refused(diagnostics: readonly Diagnostic[]): Result<Converted> {
  return { ok: false, diagnostics: sortDiagnostics(diagnostics) };
}

async function toManifest(req: ConvertRequest): Promise<Result<Converted>> {
  const { dir, label } = req;
  const validation = await validateAgentSkill(dir, { label, nameCharset: req.nameCharset });
  if (!validation.valid) return refused(validation.diagnostics);
  const source = dirSource(dir);
  const { scripts } = await scriptsOf(source, validation);
  const versions: { -readonly [K in ScriptRuntime]?: string } = {};
  for (const runtime of new Set(scripts.map((s) => s.runtime))) {
    const v = req.runtimeVersion(runtime);
    if (v !== undefined) versions[runtime] = v;
  }
  const target = join(dir, 'skill.yaml');
  const file = join(label, 'skill.yaml');
  if (await exists(join(dir, 'skill.json'))) {
    throw new SkillctlError('OUTPUT_EXISTS', `${join(label, 'skill.json')} exists; a bundle holds one manifest`, { hint: 'convert it instead, or remove it' });
  }
  if (!req.force && (await exists(target))) throw new SkillctlError('OUTPUT_EXISTS', `${file} already exists`, { hint: 'pass --force to replace it' });
  const conv = await agentSkillToManifest(source, validation, {
    file,
    runtimeVersions: versions as RuntimeVersions,
    ...(req.id !== undefined ? { id: req.id } : {}),
    ...(req.skillVersion !== undefined ? { version: req.skillVersion } : {}),
  });
  const diagnostics = [...validation.diagnostics, ...conv.diagnostics];
  if (conv.text === undefined || conv.manifest === undefined) return refused(diagnostics);
  const taken = await foldedTwin(dir, 'skill.yaml', file);
  if (taken !== undefined) return refused([...diagnostics, taken]);
  await write(target, conv.text, req.force);
  const eps = conv.manifest.entrypoints as ConvertedEntrypoint[];
  const { skill_id, skill_version, manifest_digest, content_digest } = conv.manifest;
  const entrypoints = eps.map((e) => ({ entrypoint_id: e.entrypoint_id, runtime: e.runtime, runtime_version: e.runtime_version, command: e.command }));
  return { ok: true, value: { written: file, format: 'manifest', skill_id, skill_version, manifest_digest, content_digest, entrypoints }, diagnostics: sortDiagnostics(diagnostics) };
}

async function toSkillMd(req: ConvertRequest): Promise<Result<Converted>> {
  const { dir, label } = req;
  const before = await validateBundle(dir, label);
  if (!before.valid || before.manifest === undefined) return refused(before.diagnostics);
  const existing = await findSkillMd(dir);
  const mdPath = 'diagnostic' in existing ? join(dir, 'SKILL.md') : existing.path;
  const mdFile = join(label, basename(mdPath));
  // Kept to restore on failure: read bounded, and refused when not a regular file (fs/read-bounded.ts).
  const oldMd = 'diagnostic' in existing ? undefined : await readInputFile(existing.path, mdFile, { maxBytes: MANIFEST_MAX_BYTES });
  if (oldMd !== undefined && !req.force) throw new SkillctlError('OUTPUT_EXISTS', `${mdFile} already exists`, { hint: 'pass --force to replace it' });
  const conv = manifestToSkillMd(before.manifest, {
    dirName: basename(resolve(dir)),
    files: before.files ?? [],
    file: mdFile,
    ...(req.name !== undefined ? { name: req.name } : {}),
  });
  if (conv.text === undefined || conv.name === undefined) return refused(conv.diagnostics);
  const { name } = conv;

  if (oldMd === undefined) {
    const taken = await foldedTwin(dir, basename(mdPath), mdFile);
    if (taken !== undefined) return refused([taken]);
  }
  const found = await findManifest(dir);
  if ('diagnostic' in found) throw new SkillctlError('BUNDLE_UNREADABLE', 'the manifest disappeared during the conversion');
  const oldManifest = (await readInputFile(found.path, join(label, basename(found.path)), { maxBytes: MANIFEST_MAX_BYTES })).toString('utf8');
  const restore = async (): Promise<void> => {
    if (oldMd === undefined) await rm(mdPath, { force: true });
    else await writeFileAtomic(mdPath, oldMd);
    await writeFileAtomic(found.path, oldManifest);
  };
  await write(mdPath, conv.text, req.force);
  // SKILL.md is now a file of the bundle: content_digest, and so manifest_digest, change.
  try {
    const fix = fixDigests(await validateBundle(dir, label));
    if (fix.text !== undefined) await writeFileAtomic(found.path, fix.text);
    const after = await validateBundle(dir, label);
    const skill = await validateAgentSkill(dir, { label, nameCharset: req.nameCharset });
    if (!after.valid || !skill.valid) {
      // The folder with one more file can fail where it passed (20,000 files, a .skillignore, a
      // change made meanwhile): the folder's own findings, not a bug, and the files put back.
      await restore();
      const errors = [...after.diagnostics, ...skill.diagnostics].filter((d) => d.severity === 'error');
      // Both checks list the folder: a finding of the listing comes from each.
      return refused(errors.filter((d, i) => errors.findIndex((e) => e.code === d.code && e.message === d.message) === i));
    }
    const value: Converted = {
      written: mdFile,
      format: 'skill-md',
      name,
      manifest: after.file,
      manifest_digest: after.digests.manifest.computed ?? null,
      content_digest: after.digests.content.computed ?? null,
    };
    return { ok: true, value, diagnostics: sortDiagnostics([...conv.diagnostics, ...skill.diagnostics]) };
  } catch (err) {
    await restore();
    throw err;
  }
}

/** What the folder holds decides the direction, unless `to` says; a folder with neither cannot be converted. */
async function direction(req: ConvertRequest): Promise<ConvertTarget> {
  const isDir = await stat(req.dir).then(
    (st) => st.isDirectory(),
    (err: unknown) => Promise.reject(errnoCode(err) === 'ENOENT' ? new SkillctlError('INPUT_NOT_FOUND', `${req.label} does not exist`) : err),
  );
  if (!isDir) throw new SkillctlError('INPUT_UNREADABLE', `${req.label} is not a directory`);
  const hasMd = !('diagnostic' in (await findSkillMd(req.dir)));
  const hasManifest = !('diagnostic' in (await findManifest(req.dir)));
  if (req.to === undefined) {
    if (hasMd && hasManifest) {
      throw new SkillctlError('USAGE', `${req.label} has both SKILL.md and a manifest`, { hint: 'say which to write with --to manifest or --to skill-md (and --force)' });
    }
    if (!hasMd && !hasManifest) throw new SkillctlError('NO_INPUT', `${req.label} has neither SKILL.md nor skill.yaml / skill.json`, { hint: 'create one with skillctl init' });
    return hasMd ? 'manifest' : 'skill-md';
  }
  if (req.to === 'manifest' && !hasMd) throw new SkillctlError('NO_INPUT', `${req.label} has no SKILL.md to convert`);
  if (req.to === 'skill-md' && !hasManifest) throw new SkillctlError('NO_INPUT', `${req.label} has no skill.yaml or skill.json to convert`);
  return req.to;
}

/**
 * Converts the folder; not `ok` (nothing written) when it does not validate as its kind or the
 * conversion has findings. Throws SkillctlError when the folder cannot be converted at all or the
 * file to write exists (without `force`).
 */
export async function convertSkillDir(req: ConvertRequest): Promise<Result<Converted>> {
  return (await direction(req)) === 'manifest' ? toManifest(req) : toSkillMd(req);
}
