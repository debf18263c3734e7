/**
 * Reaching a listed file again after its walk, without following a link on the way. A walk lists
 * through directory handles (dir-source.ts); a read made afterwards by the file's path (pin's
 * hashes, validate's reads, a file `mcp --skills` serves) would resolve that path anew, and a
 * directory swapped for a link since the listing would lead it outside the bundle. So each
 * directory between the root and the file is opened through its parent's handle
 * (`DirOps.openDir`, never following a link): one that is a link now is refused, as the walk
 * refuses it. The root itself is reached by its path, as the walk reaches it (whether a root
 * given as a link is followed is its caller's choice); given the identity the walk found there
 * (`RootIdentity`), it is opened once and must still be that directory (else `RootChanged`): a
 * bundle's own folder swapped for a link, or for another directory, after its walk is refused,
 * not read. `openRoot` is that check alone, for a caller that holds a root for longer than one
 * walk (`mcp --skills`, whose roots are resolved once at start).
 *
 * Without /proc (not Linux), a handle's path is the path it was opened by: each directory is
 * still refused when it is a link as it is opened, but the file is then opened by its path, as
 * dir-source.ts does there.
 */
import { join, sep } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { DirHandle, DirOps } from './dir-ops.js';

/** `name` in directory `dir`: on POSIX systems a plain concatenation (walks make many). */
export const childPath = sep === '/' ? (dir: string, name: string): string => `${dir}/${name}` : (dir: string, name: string): string => join(dir, name);

/** A listed (clean POSIX) path below `root`, by path. */
export const pathBelow = sep === '/' ? (root: string, rel: string): string => `${root}/${rel}` : (root: string, rel: string): string => join(root, ...rel.split('/'));

/** The finding for a link met in a bundle (`rel`: the link, relative to the bundle). */
export function symlinkFound(rel: string): Diagnostic {
  return diag('BUNDLE_SYMLINK', 'symbolic links are not allowed in a bundle', {
    file: rel,
    hint: 'replace the link with a copy of the file, or list it in .skillignore',
  });
}

/** True for the errno an open without following a link gets on one (ELOOP; EMLINK on FreeBSD). */
export function isLinkErrno(code: string | undefined): boolean {
  return code === 'ELOOP' || code === 'EMLINK';
}

/** A directory on the way to a listed file is a link now (or was when it was opened): nothing below it was opened. */
export class LinkOnTheWay extends Error {
  readonly code = 'ELOOP';
  /** The directory found to be a link, relative to the root. */
  constructor(readonly dir: string) {
    super(`${dir} is a symbolic link`);
  }
}

/** The directory a walk listed as a bundle's root: what its later reads must find there. */
export interface RootIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** The root named is no longer the directory that was walked (a link, or another directory, now): nothing below it was opened. */
export class RootChanged extends Error {
  readonly code = 'BUNDLE_ROOT_CHANGED';
  constructor(readonly root: string) {
    super(`${root} is no longer the directory that was walked`);
  }
}

/** The finding for a bundle root found replaced since its path was resolved or walked. */
export function rootChangedFound(): Diagnostic {
  return diag('BUNDLE_ROOT_CHANGED', 'the bundle folder was replaced (by a symbolic link or another directory) while it was read', {
    hint: 'nothing was read from what replaced it; run again once the folder stays put',
  });
}

/** Whether the directory opened (its fstat, `stats`) is the root `expect` names. Without /proc's fstat (not Linux) there is nothing to compare, and it is taken to be. */
export function sameRoot(stats: RootIdentity | undefined, expect: RootIdentity): boolean {
  return stats === undefined || (stats.dev === expect.dev && stats.ino === expect.ino);
}

/**
 * The root `root` opened as a handle, if it is still the directory `expect`: followed when it is
 * a link only with `follow` (a path resolved when it was first walked has none, so a link there
 * was swapped in since). Throws RootChanged for a link not followed or another directory, else
 * the errno of the open (ENOENT: nothing there now).
 */
export async function openRoot(openDir: NonNullable<DirOps['openDir']>, root: string, expect: RootIdentity, follow: boolean): Promise<DirHandle> {
  let handle: DirHandle;
  try {
    handle = await openDir(root, follow);
  } catch (err) {
    if (isLinkErrno((err as NodeJS.ErrnoException).code)) throw new RootChanged(root);
    throw err;
  }
  if (!sameRoot(handle.stats, expect)) {
    await handle.close();
    throw new RootChanged(root);
  }
  return handle;
}

/**
 * Directories below one root, opened segment by segment and kept open along the last one asked
 * for: files read in path order share the handles of the directories they have in common. For
 * one caller at a time (the handles of one call are closed by the next).
 */
export class DirCursor {
  readonly #open: { readonly name: string; readonly handle: DirHandle }[] = [];
  #root: DirHandle | undefined;

  constructor(
    readonly ops: DirOps,
    readonly root: string,
    /** The walked root's identity: the root is then opened once and checked (see the top of this file). */
    readonly expect?: RootIdentity,
    /** Whether that open follows a link at the root (`openRoot`). */
    readonly followRoot = true,
  ) {}

  /** Where the root's entries are reached: its path, or with `expect` the handle opened once and checked. */
  async #base(): Promise<string> {
    const openDir = this.ops.openDir?.bind(this.ops);
    if (this.expect === undefined || openDir === undefined) return this.root;
    if (this.#root !== undefined) return this.#root.path;
    this.#root = await openRoot(openDir, this.root, this.expect, this.followRoot);
    return this.#root.path;
  }

  /**
   * Where the entries of directory `rel` ('' for the root) are reached: a handle's path, opened
   * through its parent's. Throws LinkOnTheWay for a directory that is a link, else the errno of
   * the open that failed. Without `openDir` (a git tree, which holds no links) the path itself.
   */
  async at(rel: string): Promise<string> {
    const base = await this.#base();
    if (rel === '') return base;
    const open = this.#open;
    const openDir = this.ops.openDir?.bind(this.ops);
    if (openDir === undefined) return pathBelow(base, rel);
    const segs = rel.split('/');
    let k = 0;
    while (k < open.length && k < segs.length && open[k]?.name === segs[k]) k++;
    while (open.length > k) await open.pop()?.handle.close();
    for (; k < segs.length; k++) {
      const name = segs[k] as string;
      const parent = k === 0 ? base : (open[k - 1] as (typeof open)[number]).handle.path;
      let handle: DirHandle;
      try {
        handle = await openDir(childPath(parent, name), false);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (isLinkErrno(code)) throw new LinkOnTheWay(segs.slice(0, k + 1).join('/'));
        throw err;
      }
      open.push({ name, handle });
    }
    return (open[open.length - 1] as (typeof open)[number]).handle.path;
  }

  /** Where the listed file `rel` is opened: its directory reached as `at` reaches it. */
  async file(rel: string): Promise<string> {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return childPath(await this.#base(), rel);
    return childPath(await this.at(rel.slice(0, slash)), rel.slice(slash + 1));
  }

  async close(): Promise<void> {
    while (this.#open.length > 0) await this.#open.pop()?.handle.close();
    const root = this.#root;
    this.#root = undefined;
    await root?.close();
  }
}

/** `use` called with where the listed file `rel` below `root` is opened (see `DirCursor.file`, `expect` as there); the handles opened for it closed after. */
export async function atBelow<T>(ops: DirOps, root: string, rel: string, use: (at: string) => Promise<T>, expect?: RootIdentity): Promise<T> {
  // A file of the root needs no directory opened when the root is not checked.
  if (!rel.includes('/') && expect === undefined) return use(childPath(root, rel));
  const cursor = new DirCursor(ops, root, expect);
  try {
    return await use(await cursor.file(rel));
  } finally {
    await cursor.close();
  }
}
