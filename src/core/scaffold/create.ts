/**
 * `skillctl init` on disk: the scaffold written into its folder, all or nothing, and checked the
 * way `skillctl validate` checks it (digests fixed first, since with --force other files may share
 * the folder and belong to the bundle).
 */
import { chmod, lstat, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { validateAgentSkill } from '../agent-skills/index.js';
import type { MemoryFile } from '../bundle/index.js';
import { sortDiagnostics, type Diagnostic, type Result } from '../diagnostics.js';
import { errnoCode, InternalError, SkillctlError } from '../errors.js';
import { asOutputWrite, createFileOrRefuse, makeDirs, writeFileAtomic } from '../fs/index.js';
import { fixDigests, validateBundle } from '../manifest/index.js';
import { unusableContents } from './folder-contents.js';
import { scaffoldSkill, type ScaffoldSpec } from './scaffold.js';

export interface CreateSkillRequest {
  /** Absolute path of the folder to create (or, empty or with `force`, to write into). */
  readonly target: string;
  /** How to name the folder in messages. */
  readonly label: string;
  readonly spec: ScaffoldSpec;
  /** Write into a folder that is not empty, replacing files of the same name. */
  readonly force: boolean;
}

export interface CreatedSkill {
  /** The paths written, relative to the folder, in path order. */
  readonly files: readonly string[];
}

async function isEmptyDir(path: string): Promise<boolean | undefined> {
  try {
    const st = await stat(path);
    if (!st.isDirectory()) return false;
    return (await readdir(path)).length === 0;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

async function writeInto(root: string, files: readonly MemoryFile[], replace: boolean): Promise<void> {
  for (const f of files) {
    const path = join(root, ...f.path.split('/'));
    await makeDirs(dirname(path));
    const mode = f.mode === '0755' ? 0o755 : 0o644;
    // The mode is the new file's own from its creation, not a chmod after the rename: that follows
    // a link, and a program writing the folder could put one there in between (`~/.ssh/id_ed25519`).
    if (replace) await writeFileAtomic(path, f.data, mode);
    else await createFileOrRefuse(path, f.data, mode);
  }
}

/**
 * A folder written into with `--force` may be a repository's, which may hold `scripts` as a link
 * (git checks links out as links) to a folder outside it: the scaffold's script was written there,
 * replacing a file of that name, before validation found the link. Refused (OUTPUT_UNWRITABLE)
 * before anything is written when a folder of a file below `target` is a link, or is not a folder
 * (which failed only once the files before it were written).
 */
async function refuseUnusableFolders(target: string, files: readonly MemoryFile[], label: string): Promise<void> {
  for (const f of files) {
    let at = target;
    for (const part of f.path.split('/').slice(0, -1)) {
      at = join(at, part);
      const st = await lstat(at).catch(() => undefined);
      if (st === undefined) break;
      if (st.isSymbolicLink()) throw new SkillctlError('OUTPUT_UNWRITABLE', `${at} is a link: init writes ${f.path} only inside ${label}`, { hint: 'remove the link, or choose a new folder' });
      if (!st.isDirectory()) throw new SkillctlError('OUTPUT_UNWRITABLE', `${at} is not a folder: init cannot write ${f.path} in ${label}`, { hint: 'remove it, or choose a new folder' });
    }
  }
}

/**
 * Writes the new skill. A new folder is built beside its target and renamed into place, so it
 * appears whole or not at all; an empty folder gets files created exclusively, removed again if
 * one fails; `force` writes into a non-empty folder, replacing files of the same name.
 */
async function place(target: string, files: readonly MemoryFile[], force: boolean, label: string): Promise<void> {
  const empty = await isEmptyDir(target);
  if (empty === undefined) {
    await makeDirs(dirname(target));
    const tmp = await mkdtemp(join(dirname(target), `.${basename(target)}.init-`));
    try {
      await writeInto(tmp, files, false);
      await chmod(tmp, 0o755);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (errnoCode(err) === 'EEXIST' || errnoCode(err) === 'ENOTEMPTY') throw new SkillctlError('OUTPUT_EXISTS', `${label} appeared while it was being created`);
      throw err;
    }
    return;
  }
  if (empty === false && !force) {
    throw new SkillctlError('OUTPUT_EXISTS', `${label} exists and is not an empty folder`, { hint: 'choose a new folder, or pass --force to write into it' });
  }
  if (force) {
    await refuseUnusableFolders(target, files, label);
    await writeInto(target, files, true);
    return;
  }
  const written: string[] = [];
  try {
    for (const f of files) {
      await writeInto(target, [f], false);
      written.push(join(target, ...f.path.split('/')));
    }
  } catch (err) {
    for (const p of written) await rm(p, { force: true });
    throw err;
  }
}

/**
 * The findings about the skill as written. A new folder's skill always validates; with --force the
 * folder's other files are part of it, and what they do that the check before writing cannot see
 * (a `.skillignore` leaving out skill.yaml) is theirs to report, not a bug.
 */
async function checkWritten(req: CreateSkillRequest): Promise<{ valid: boolean; diagnostics: readonly Diagnostic[] }> {
  const { target, label } = req;
  if (req.spec.format === 'skill-md') return validateAgentSkill(target, { label });
  let r = await validateBundle(target, label);
  const fix = fixDigests(r);
  if (fix.text !== undefined && r.file !== '-') {
    await writeFileAtomic(join(target, 'skill.yaml'), fix.text);
    r = await validateBundle(target, label);
  }
  return r;
}

/**
 * Creates the skill `spec` describes in `target`. Not `ok` (nothing written) when the scaffold
 * itself has findings; throws OUTPUT_EXISTS when the folder is taken.
 */
export async function createSkill(req: CreateSkillRequest): Promise<Result<CreatedSkill>> {
  const scaffold = await scaffoldSkill(req.spec);
  if (scaffold.files === undefined) return { ok: false, diagnostics: sortDiagnostics(scaffold.diagnostics) };
  // A file where a folder belongs (`scripts`, a parent of the target), a full disk: the user's file system saying no, not a bug.
  const { files } = scaffold;
  // A target that cannot be looked at is place's to report (OUTPUT_UNWRITABLE).
  if (req.force && (await isEmptyDir(req.target).catch(() => undefined)) === false) {
    // A linked folder init would write through is the first thing to refuse (OUTPUT_UNWRITABLE, exit 2).
    await refuseUnusableFolders(req.target, files, req.label);
    const unusable = await unusableContents(req.target, files, req.spec.format, req.label);
    if (unusable.length > 0) return { ok: false, diagnostics: sortDiagnostics(unusable) };
  }
  await asOutputWrite(req.label, () => place(req.target, files, req.force, req.label));
  const checked = await checkWritten(req);
  if (!checked.valid && !req.force) throw new InternalError(`the new skill does not validate: ${checked.diagnostics.find((d) => d.severity === 'error')?.code ?? ''}`);
  if (!checked.valid) return { ok: false, diagnostics: sortDiagnostics(checked.diagnostics) };
  return { ok: true, value: { files: files.map((f) => f.path) }, diagnostics: sortDiagnostics(checked.diagnostics) };
}
