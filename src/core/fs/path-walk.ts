/**
 * The walk the kernel makes to resolve a path, entry by entry, for the checks that must judge
 * each link on the way rather than ask realpath where it all ends: a program's lookup
 * (find-command.ts) and a policy path's resolution (policy/grant-path.ts).
 */
import { lstat, readlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { errnoCode } from '../errors.js';

/** How many links a resolution follows before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

/** One entry on the way, named by the real directory that holds it. */
export interface PathStep {
  readonly entry: string;
  /** The real directory holding `entry`. */
  readonly dir: string;
  /** `missing`: not there (the rest is walked as written); `unknown`: lstat or readlink failed otherwise (`error`). */
  readonly kind: 'link' | 'entry' | 'missing' | 'unknown';
  /** A link's content. */
  readonly target?: string;
  readonly error?: string;
  /** The components still to walk after this entry (a followed link's target comes first). */
  readonly rest: readonly string[];
}

export type WalkResult<T> = { readonly stopped: T } | { readonly real: string } | { readonly loop: true };

/**
 * Walks the absolute `path` as the kernel does (`..` after a link climbs from where the link
 * led), showing `visit` every entry; the first value `visit` returns stops the walk. A link that
 * is not stopped is followed; past MAX_LINKS the walk ends as ELOOP would. An entry that is
 * missing or cannot be asked about is passed as written.
 */
export async function walkPath<T>(path: string, visit: (step: PathStep) => T | undefined | Promise<T | undefined>): Promise<WalkResult<T>> {
  let dir = '/';
  let pending = path.split('/');
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      dir = posix.dirname(dir);
      continue;
    }
    const entry = posix.join(dir, name);
    let step: PathStep;
    try {
      step = (await lstat(entry)).isSymbolicLink() ? { entry, dir, kind: 'link', target: await readlink(entry), rest: pending } : { entry, dir, kind: 'entry', rest: pending };
    } catch (err) {
      const code = errnoCode(err);
      step = code === 'ENOENT' || code === 'ENOTDIR' ? { entry, dir, kind: 'missing', rest: pending } : { entry, dir, kind: 'unknown', error: code ?? String(err), rest: pending };
    }
    const stop = await visit(step);
    if (stop !== undefined) return { stopped: stop };
    if (step.kind !== 'link' || step.target === undefined) {
      dir = entry;
      continue;
    }
    if (++links > MAX_LINKS) return { loop: true };
    if (posix.isAbsolute(step.target)) dir = '/';
    pending = [...step.target.split('/'), ...pending];
  }
  return { real: dir };
}
