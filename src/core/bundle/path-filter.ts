/**
 * Which paths of a bundle are part of it: the same rules for a directory and for an archive,
 * so a bundle and its packed archive list the same files and have the same digests.
 */
import type { Ignore } from 'ignore';
import { EXCLUDED_DIRS, EXCLUDED_NAMES } from './source.js';

/** The `.skillignore` rules (gitignore syntax). `ignore` is loaded only when a bundle has one. */
export async function parseSkillignore(text: string): Promise<Ignore> {
  const { default: ignore } = await import('ignore');
  return ignore().add(text);
}

/**
 * True when `rel` (a POSIX path relative to the bundle root) is left out of the bundle: a
 * directory named .git, node_modules or .skillctl, anything named .git (a worktree's link to
 * its repository), or a match of `.skillignore`. Only the last segment is tested; a directory
 * walk never enters an excluded directory, and a flat listing tests every ancestor with
 * `excludedWithAncestors`.
 */
export function isExcluded(rel: string, isDir: boolean, ig: Ignore | undefined): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (EXCLUDED_NAMES.has(name) || (isDir && EXCLUDED_DIRS.has(name))) return true;
  return ig?.ignores(isDir ? `${rel}/` : rel) === true;
}

/**
 * `isExcluded` for a file of a flat listing (an archive): the file or any directory above it.
 * The folders' names are tested one by one; `.skillignore` is asked once, about the file, since
 * `ignores` tests every folder above a path itself and keeps what it found: asked about each
 * folder's path as well, a path n folders deep cost n times its length each time.
 */
export function excludedWithAncestors(rel: string, ig: Ignore | undefined): boolean {
  const names = rel.split('/');
  const file = names.pop() as string;
  if (names.some((name) => EXCLUDED_NAMES.has(name) || EXCLUDED_DIRS.has(name))) return true;
  return EXCLUDED_NAMES.has(file) || ig?.ignores(rel) === true;
}
