/**
 * `mkdir -p` without Node's recursive mkdir, which never returns for a path under a pseudo file
 * system that refuses new directories (`/proc/x`: Node 20 and 24 retry it forever). Each missing
 * directory is made on its own, so such a path fails at once with the system's error.
 */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errnoCode } from '../errors.js';

/**
 * Makes `path` and its missing ancestors. Returns the first directory it created (as Node's
 * `mkdir(…, {recursive: true})` does), or undefined when `path` already was a directory.
 * Throws the system error (ENOTDIR when a component is a file, ENOENT or EACCES where the
 * system refuses a directory).
 */
export async function makeDirs(path: string, mode?: number): Promise<string | undefined> {
  const missing: string[] = [];
  for (let dir = resolve(path); ; ) {
    let isDir: boolean;
    try {
      isDir = (await stat(dir)).isDirectory();
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      missing.push(dir);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
      continue;
    }
    if (!isDir) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path: dir });
    break;
  }
  missing.reverse();
  for (const dir of missing) {
    try {
      await mkdir(dir, mode !== undefined ? { mode } : {});
    } catch (err) {
      // Made meanwhile by another process: fine, as long as it is a directory (checked next step or by the caller's use).
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }
  return missing[0];
}

/**
 * Takes back what `makeDirs(dir)` made: the directories from `dir` up to `first` (what it
 * returned), each only while it is empty. Something another process put there meanwhile (a
 * second pull or pack into the same new folder) is not this call's to remove, nor the folders
 * holding it.
 */
export async function removeMadeDirs(dir: string, first: string): Promise<void> {
  const stop = resolve(first);
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (!(await rmdir(d).then(() => true, () => false))) return;
    if (d === stop || dirname(d) === d) return;
  }
}
