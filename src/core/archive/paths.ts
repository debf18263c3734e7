/**
 * Which paths an archive entry may carry. Kept apart from the reader, which loads node:zlib: a
 * directory walk (the validate start-up path) checks its names with the same rule.
 */

/**
 * Control characters and backslashes make a path mean different things on different systems;
 * U+FFFD means the name was not valid UTF-8 and cannot be reopened by the decoded name.
 */
export const UNPORTABLE_NAME = /[\u0000-\u001f\u007f\\\ufffd]/;

/** Why a path from an archive is unsafe, or undefined when it is a clean relative POSIX path. */
export function unsafeArchivePath(path: string): string | undefined {
  if (path === '') return 'empty path';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive-letter path';
  if (UNPORTABLE_NAME.test(path)) return 'backslash, control character or invalid UTF-8 in the path';
  for (const seg of path.split('/')) {
    if (seg === '..') return '`..` segment';
    if (seg === '.') return '`.` segment';
    if (seg === '') return 'empty path segment';
  }
  return undefined;
}
