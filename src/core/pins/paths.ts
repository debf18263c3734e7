/**
 * Where pinned things are. A lock at `<root>/pins/skills.lock.json` names its sources relative to
 * `<root>`, the project root; a source must stay inside it, also after symbolic links resolve.
 */
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { unsafeArchivePath } from '../archive/index.js';
import { asyncDirOps, type DirOps } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';

/** The project root a lock belongs to: the directory holding the lock's directory. */
export function lockRoot(lockPath: string): string {
  return dirname(dirname(resolve(lockPath)));
}

/** Why `source` is not a clean relative POSIX path, or undefined. */
export function unsafeSourcePath(source: string): string | undefined {
  return unsafeArchivePath(source);
}

/** The absolute path of a (safe) source. */
export function sourcePath(root: string, source: string): string {
  return join(root, ...source.split('/'));
}

/** `abs` as a source relative to `root`, or undefined when it is not inside `root`. */
export function toSource(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * `abs` with every symbolic link resolved, and whether that lies outside `root` (resolved too):
 * a source reached through a link must not pull files from elsewhere into a verified pin.
 * Undefined when `abs` does not exist (the caller reports that). `knownRealRoot` spares resolving
 * the root again for every source of one lock.
 */
export async function resolveInside(
  root: string,
  abs: string,
  ops: Pick<DirOps, 'realpath'> = asyncDirOps,
  knownRealRoot?: string,
): Promise<{ readonly real: string; readonly escapes: boolean } | undefined> {
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([ops.realpath(abs), knownRealRoot ?? ops.realpath(root)]);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
  return { real, escapes: real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep) };
}

/** True when `abs`, with every symbolic link resolved, lies outside `root` (see `resolveInside`); false when it does not exist. */
export async function escapesRoot(root: string, abs: string, ops: Pick<DirOps, 'realpath'> = asyncDirOps, knownRealRoot?: string): Promise<boolean> {
  return (await resolveInside(root, abs, ops, knownRealRoot))?.escapes ?? false;
}

/**
 * The absolute path of a pin's source, or the `PIN_SOURCE_INVALID` finding (placed at `at`) when
 * the source is not a clean relative path or leads outside the project through a link.
 */
export async function resolveSource(
  root: string,
  source: string,
  field: string,
  at: { readonly file: string; readonly pointer?: string },
  ops: Pick<DirOps, 'realpath'> = asyncDirOps,
  realRoot?: string,
): Promise<{ abs: string; diagnostic?: undefined } | { abs?: undefined; diagnostic: Diagnostic }> {
  const unsafe = unsafeSourcePath(source);
  if (unsafe !== undefined) return { diagnostic: diag('PIN_SOURCE_INVALID', `${field} ${JSON.stringify(source)}: ${unsafe}`, at) };
  const abs = sourcePath(root, source);
  let escapes: boolean;
  try {
    escapes = await escapesRoot(root, abs, ops, realRoot);
  } catch (err) {
    const code = errnoCode(err);
    // A link that never resolves is the pin's fault; anything else is a tree that cannot be read.
    if (code === 'ELOOP') return { diagnostic: diag('PIN_SOURCE_INVALID', `${field} ${source} is a loop of symbolic links`, at) };
    throw new SkillctlError('INPUT_UNREADABLE', `cannot resolve ${source}: ${code ?? String(err)}`, { cause: err });
  }
  if (escapes) return { diagnostic: diag('PIN_SOURCE_INVALID', `${field} ${source} resolves outside the project through a symbolic link`, at) };
  return { abs };
}

/** True when something exists at `path` (a broken link counts as nothing). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
