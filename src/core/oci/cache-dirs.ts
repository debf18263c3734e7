/**
 * The blob cache's own folders (`skillctl`, `oci`, `tmp`, `blobs`, `sha256` under the cache
 * home), reached without following a link. The cache is written with the user's rights, so any
 * program of the user's can put a link where one of these folders belongs (a skill granted the
 * home, or `$XDG_CACHE_HOME`); followed, a pull wrote every blob it stored, and removed every
 * cached file that did not hash, in the folder the link names: `~/.bashrc.d`, which the default
 * `.bashrc` of Fedora and RHEL sources whole, a manifest's `"$(…)"` run as a command in every
 * shell (until the stop of 2026-12-01). The cache home itself is the user's to place (a link to
 * another disk); below it, each folder is opened on its own (O_DIRECTORY, O_NOFOLLOW), and its
 * entries are reached through the folder opened (/proc/self/fd/N on Linux), so a link swapped in
 * after the open leads nowhere either.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, SkillctlError } from '../errors.js';
import { makeDirs } from '../fs/index.js';

/** Whether an open folder can be named by its descriptor (elsewhere, by the path it was opened by). */
const PROC_FD = process.platform === 'linux';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** An open cache folder. */
export interface CacheDir {
  /** Where the folder's entries are reached: /proc/self/fd/N on Linux, else the folder's path. */
  readonly at: string;
  close(): Promise<void>;
}

function opened(fh: FileHandle, path: string): CacheDir {
  return { at: PROC_FD ? `/proc/self/fd/${fh.fd}` : path, close: () => fh.close() };
}

function refused(path: string, why: string, root: string): SkillctlError {
  return new SkillctlError('OUTPUT_UNWRITABLE', `the cache folder ${path} ${why}: the cache is read and written only through its own folders`, {
    hint: `remove it, or all of ${root}: the cache can always be removed`,
  });
}

/**
 * Opens `root/parts…` (`root` is `<cache home>/skillctl`), each folder below the cache home
 * without following a link. With `mode`, a missing folder is made (with that mode); without, a
 * missing folder is undefined. A link, or anything but a folder, is OUTPUT_UNWRITABLE naming it.
 */
export async function openCacheDir(root: string, parts: readonly string[], mode?: number): Promise<CacheDir | undefined> {
  const home = dirname(root);
  const fail = (err: unknown, path: string): SkillctlError => refused(path, `cannot be made or opened (${errnoCode(err) ?? String(err)})`, root);
  if (mode !== undefined) await makeDirs(home).catch((err: unknown) => Promise.reject(fail(err, home)));
  let dir: CacheDir;
  try {
    dir = opened(await open(home, DIR_FLAGS), home);
  } catch (err) {
    if (mode === undefined && errnoCode(err) === 'ENOENT') return undefined;
    throw fail(err, home);
  }
  let path = home;
  try {
    for (const part of [basename(root), ...parts]) {
      path = join(path, part);
      const inside = join(dir.at, part);
      if (mode !== undefined) {
        await mkdir(inside, { mode }).catch((err: unknown) => {
          if (errnoCode(err) !== 'EEXIST') throw fail(err, path);
        });
      }
      const next = await open(inside, DIR_FLAGS | constants.O_NOFOLLOW).catch(async (err: unknown) => {
        const code = errnoCode(err);
        if (code === 'ENOENT' && mode === undefined) return undefined;
        // Linux answers ENOTDIR for a link with O_DIRECTORY and O_NOFOLLOW, where others say ELOOP.
        const link = code === 'ELOOP' || (code === 'ENOTDIR' && (await lstat(inside).catch(() => undefined))?.isSymbolicLink() === true);
        if (link) throw refused(path, 'is a link', root);
        if (code === 'ENOTDIR') throw refused(path, 'is not a folder', root);
        throw fail(err, path);
      });
      await dir.close();
      if (next === undefined) return undefined;
      dir = opened(next, path);
    }
  } catch (err) {
    await dir.close().catch(() => undefined);
    throw err;
  }
  return dir;
}

/** `openCacheDir` making what is missing: the folder, never undefined. */
export async function makeCacheDir(root: string, parts: readonly string[], mode: number): Promise<CacheDir> {
  const dir = await openCacheDir(root, parts, mode);
  if (dir === undefined) throw refused(join(root, ...parts), 'could not be made', root);
  return dir;
}
