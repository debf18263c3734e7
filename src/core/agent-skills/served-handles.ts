/**
 * The calls the bundle walker (dirSource) makes to list one served skill afresh: through
 * directory handles, as verify-pins' walk makes them (bundle/dir-ops.ts `openDir`), and through
 * the server's walker, which keeps directory listings between listings (served-walk.ts).
 *
 * Threat: a local process swaps a directory of a skill for a link to `~/.ssh` between two steps
 * of the walk, so that the server lists, hashes and serves files from outside the skill to a
 * remote client. Every directory is opened through its parent's handle without following a link
 * (a link is BUNDLE_SYMLINK, and the skill is left out), and its entries and files are reached
 * through that handle, never through a path that could resolve elsewhere by then.
 *
 * A handle's path (/proc/self/fd/N) names another directory on every walk, so listings are kept
 * by the path the directory was reached as below the folder, and used only while the identity
 * (fstat) of the directory opened is the one kept with them. Without /proc (not Linux) a
 * handle's path is that path, and its identity is taken by it (dir-below.ts says what remains).
 */
import { lstatSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { childPath, syncDirOps, type DirHandle, type DirOps } from '../bundle/index.js';
import { identityOf, type FileIdentity, type ServedWalker } from './served-walk.js';

/** One walk of a folder: the calls to give dirSource, and what the walk saw. */
export interface FolderWalk {
  readonly ops: DirOps;
  /** Each file the walk stat'ed (links not followed), by its path below the folder as reached (`dir/...`). */
  readonly stats: ReadonlyMap<string, Stats>;
  /** Every directory it listed, by path as reached. */
  readonly dirs: readonly string[];
}

interface Opened {
  readonly path: string;
  readonly identity: FileIdentity;
}

const settle = <T>(fn: () => T): Promise<T> => {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
};

/**
 * The walk of the folder `dir` opened as `at` (a handle's path, or `dir`), for dirSource(`at`):
 * it opens `at` as its root and everything below through handles.
 */
export function walkFolder(walker: ServedWalker, at: string, dir: string): FolderWalk {
  // Open handles, by the path dirSource reaches their entries through. Removed before the close:
  // the kernel gives a closed descriptor's number to the next open.
  const open = new Map<string, Opened>();
  const stats = new Map<string, Stats>();
  const dirs: string[] = [];
  const openDir = syncDirOps.openDir as NonNullable<DirOps['openDir']>;
  /** Where `entry` (a child of an open handle's path, as dirSource makes it) was reached, below `dir`. */
  const reached = (entry: string): string => {
    if (entry === at) return dir;
    const parent = open.get(dirname(entry));
    if (parent === undefined) throw Object.assign(new Error(`${entry} was not reached through the walk`), { code: 'EINVAL' });
    return childPath(parent.path, basename(entry));
  };
  const ops: DirOps = {
    ...syncDirOps,
    openDir: async (path, follow): Promise<DirHandle> => {
      if (path === at) {
        // The folder is open already (its handle is the caller's): a stat through it, not a second open.
        open.set(at, { path: dir, identity: identityOf(statSync(at)) });
        return {
          path: at,
          close: () => {
            open.delete(at);
            return Promise.resolve();
          },
        };
      }
      const where = reached(path);
      const handle = await openDir(path, follow);
      let identity: FileIdentity;
      try {
        identity = identityOf(handle.stats ?? statSync(handle.path));
      } catch (err) {
        await handle.close();
        throw err;
      }
      open.set(handle.path, { path: where, identity });
      return {
        path: handle.path,
        close: () => {
          open.delete(handle.path);
          return handle.close();
        },
      };
    },
    readdir: (path) =>
      settle((): Dirent[] => {
        const d = open.get(path);
        if (d === undefined) throw Object.assign(new Error(`${path} was not opened by the walk`), { code: 'EINVAL' });
        dirs.push(d.path);
        return walker.listedAs(d.path, d.identity, path);
      }),
    lstat: (path) =>
      settle(() => {
        const where = reached(path);
        const st = lstatSync(path);
        stats.set(where, st);
        return st;
      }),
  };
  return { ops, stats, dirs };
}
