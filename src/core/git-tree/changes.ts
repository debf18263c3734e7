/**
 * Which files under a folder differ between two trees: the files a failed pin's digests no longer
 * cover, named for the user (the lock records one digest per bundle, so the verifier alone can say
 * only that the bundle changed, not which file).
 */
import { comparePaths } from '../digest/index.js';
import type { GitTree } from './model.js';

/**
 * Paths under `dir` (a POSIX path from the top; '' for the whole tree) that are added, removed,
 * or have other bytes or another kind in `tree` than in `base`, sorted.
 */
export function changedPaths(tree: GitTree, base: GitTree, dir: string): string[] {
  const under = (p: string): boolean => dir === '' || p.startsWith(`${dir}/`);
  const out = new Set<string>();
  for (const [path, e] of tree.entries) {
    if (!under(path)) continue;
    const b = base.entries.get(path);
    if (b === undefined || b.oid !== e.oid || b.kind !== e.kind) out.add(path);
  }
  for (const path of base.entries.keys()) if (under(path) && !tree.entries.has(path)) out.add(path);
  return [...out].sort(comparePaths);
}
