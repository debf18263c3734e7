import { lstat, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { entryExists as exists } from './entry-exists.js';

/** The file whose presence makes a directory a skillctl project root. */
export const LOCK_MARKER = 'pins/skills.lock.json';

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export interface ProjectRootSearch {
  /** The project root, or undefined when there is none (or the nearest was refused for its owner). */
  readonly root: string | undefined;
  /** PROJECT_ROOT_FOREIGN: a folder that would have been the root, refused for its owner. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface ProjectRootOptions {
  /** The user skillctl runs as (default: the process's); undefined where there are no uids: every owner trusted. */
  readonly uid?: number | undefined;
}

type Foreign = { readonly path: string; readonly owner: number } | { readonly path: string; readonly everyone: true };

/**
 * The first of `paths` (each by lstat: a link is judged by its own owner) whose owner is neither
 * `uid` nor root: for root, root alone; or the folder itself (the first path) when every user may
 * write it (a sticky /tmp of root's: anyone could add the policy beside the lock). A path that is
 * not there is skipped.
 */
async function foreignOwned(paths: readonly string[], uid: number): Promise<Foreign | undefined> {
  for (const [i, path] of paths.entries()) {
    const st = await lstat(path).catch(() => undefined);
    if (st === undefined) continue;
    if (st.uid !== uid && st.uid !== 0) return { path, owner: st.uid };
    if (i === 0 && (st.mode & 0o002) !== 0) return { path, everyone: true };
  }
  return undefined;
}

function foreignRoot(dir: string, marker: string, found: Foreign): Diagnostic {
  const why = 'owner' in found ? `belongs to another user (uid ${found.owner})` : 'may be written by every user';
  return diag(
    'PROJECT_ROOT_FOREIGN',
    `${dir} holds ${marker}, but ${found.path} ${why}: it is not taken for the project root, nor is any folder above it (its lock, keys and policy are not read)`,
    { file: found.path, hint: 'if the project is yours, give it to yourself (chown) and let no one else write its folder (chmod o-w); otherwise run skillctl in a folder of your own, or make one a root (git init, or skillctl pin)' },
  );
}

/**
 * The project root: the nearest ancestor of `cwd` (itself included) holding
 * pins/skills.lock.json, else the top of the git work tree `cwd` is in (the nearest ancestor
 * holding `.git`); undefined when there is neither. A root decides which policy is in force, so a
 * policy file alone never makes one: a skill that could write a directory could otherwise plant
 * a policy there and have every run started in it obey that policy (docs/security.md).
 *
 * Like git's safe.directory check, a folder is a root only while it, its `pins/` and lock (or its
 * `.git`) belong to the user or to root (for root: to root), and while the folder is not one every
 * user may write: in a shared sticky folder such as
 * /tmp any local user can create `pins/skills.lock.json` or `.git` beside everyone's working
 * folders. The search stops at such a folder, with a PROJECT_ROOT_FOREIGN warning, and keeps
 * only a `.git` found below it: a root further up would govern a tree that holds the foreign one.
 */
export async function searchProjectRoot(cwd: string, opts: ProjectRootOptions = {}): Promise<ProjectRootSearch> {
  const uid = 'uid' in opts ? opts.uid : process.getuid?.();
  const foreign = async (paths: readonly string[]): Promise<Foreign | undefined> => (uid === undefined ? undefined : foreignOwned(paths, uid));
  let gitTop: string | undefined;
  for (let dir = cwd; ; ) {
    if (await isFile(join(dir, LOCK_MARKER))) {
      const refused = await foreign([dir, join(dir, 'pins'), join(dir, LOCK_MARKER)]);
      if (refused === undefined) return { root: dir, diagnostics: [] };
      return { root: gitTop, diagnostics: [foreignRoot(dir, LOCK_MARKER, refused)] };
    }
    if (gitTop === undefined && (await exists(join(dir, '.git')))) {
      const refused = await foreign([dir, join(dir, '.git')]);
      if (refused !== undefined) return { root: undefined, diagnostics: [foreignRoot(dir, '.git', refused)] };
      gitTop = dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: gitTop, diagnostics: [] };
    dir = parent;
  }
}

/** searchProjectRoot's root alone, for callers that have no way to show its warning. */
export async function findProjectRoot(cwd: string): Promise<string | undefined> {
  return (await searchProjectRoot(cwd)).root;
}
