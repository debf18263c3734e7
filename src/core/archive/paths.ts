/**
 * Which paths an archive entry may carry. Kept apart from the reader, which loads node:zlib: a
 * directory walk (the validate start-up path) checks its names with the same rule.
 */

/**
 * Control characters and backslashes make a path mean different things on different systems;
 * U+FFFD means the name was not valid UTF-8 and cannot be reopened by the decoded name.
 */
export const UNPORTABLE_NAME = /[\u0000-\u001f\u007f\\\ufffd]/;

/**
 * The longest path, in UTF-8 bytes, a bundle may hold: Linux's PATH_MAX, so no system opens a
 * longer one by its path, and no real skill comes near it. A pax header may carry a path of up
 * to 1 MiB (a ZIP one of 64 KiB): 200,000 folders deep, a path that every check of its folders
 * would pay for again at each depth.
 */
export const MAX_PATH_BYTES = 4096;

/** An empty, `.` or `..` segment: after a slash or at the start, before a slash or at the end. */
const BAD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** Why a path from an archive is unsafe, or undefined when it is a clean relative POSIX path. */
export function unsafeArchivePath(path: string): string | undefined {
  if (path === '') return 'empty path';
  // First: everything after looks at the whole path.
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_PATH_BYTES) return `path of ${bytes} bytes, longer than ${MAX_PATH_BYTES}`;
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive-letter path';
  if (UNPORTABLE_NAME.test(path)) return 'backslash, control character or invalid UTF-8 in the path';
  // One scan first: splitting every path of an archive of deep ones into its 2,000 names costs more than the rest of the check.
  if (!BAD_SEGMENT.test(path)) return undefined;
  for (const seg of path.split('/')) {
    if (seg === '..') return '`..` segment';
    if (seg === '.') return '`.` segment';
    if (seg === '') return 'empty path segment';
  }
  return undefined;
}

/** A path as a message shows it: whole up to 200 characters, else its start (a hostile one may be 1 MiB). */
export function shownPath(path: string): string {
  return JSON.stringify(path.length <= 200 ? path : `${path.slice(0, 100)}…`);
}
