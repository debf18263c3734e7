/**
 * Names that a file system ignoring case or normalising names (macOS, Windows) stores as one. On
 * Linux, where CI verifies, `SKILL.md` and `Skill.md` are two files with two contents; a checkout
 * on macOS keeps one file holding the bytes of whichever git wrote last, so what an agent loads
 * there is not what the digests were checked against here. A listing that holds two such names
 * in one directory is refused (`BUNDLE_PATH_COLLISION`), as `pull mcp://` refuses them
 * (mcp-skills/uri.ts `collisionKey`).
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths } from '../digest/index.js';

/** Code points HFS+ leaves out of a name when comparing (the list git's `is_hfs_dotgit` skips). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * One spelling for every name some common file system takes for the same: HFS+'s ignored code
 * points dropped, Unicode NFC (APFS and HFS+ compare normalised), case folded (upper then lower:
 * the Kelvin sign and the long s fold with k and s, as APFS and NTFS fold them), and Windows'
 * trailing dots and spaces dropped.
 */
export function foldName(name: string): string {
  const folded = name.normalize('NFD').replace(HFS_IGNORED, '').normalize('NFC').toUpperCase().toLowerCase();
  const trimmed = folded.replace(/[. ]+$/u, '');
  // `.` and `..` stay themselves: they are never entries.
  return trimmed === '' ? folded : trimmed;
}

/**
 * `BUNDLE_PATH_COLLISION` for each path of `paths` (POSIX, relative to a bundle root) that folds
 * (every segment, `foldName`) to the same path as another spelt otherwise: reported once, at the
 * later spelling in path order, naming the first. A directory spelt two ways (`A/x`, `a/y`) is
 * one collision, at the directory. `under`: the folder the paths are in (a walk checks one
 * directory's names at a time), prefixed to the paths reported.
 */
export function pathCollisions(paths: Iterable<string>, under = ''): Diagnostic[] {
  const first = new Map<string, string>();
  const found = new Map<string, string>();
  for (const path of [...paths].sort(comparePaths)) {
    const parts = path.split('/');
    let spelt = '';
    let key = '';
    for (const part of parts) {
      spelt = spelt === '' ? part : `${spelt}/${part}`;
      key = key === '' ? foldName(part) : `${key}/${foldName(part)}`;
      const seen = first.get(key);
      if (seen === undefined) first.set(key, spelt);
      else if (seen !== spelt) {
        if (!found.has(spelt)) found.set(spelt, seen);
        break;
      }
    }
  }
  const at = (p: string): string => (under === '' ? p : `${under}/${p}`);
  return [...found].map(([name, otherName]) => [at(name), at(otherName)]).map(([path, other]) =>
    diag('BUNDLE_PATH_COLLISION', `${path} and ${other} are one file on a file system that ignores case or normalises names (macOS, Windows)`, {
      file: path,
      hint: `rename or remove one of them: a checkout there keeps one file, with the bytes of either, whatever the digests checked`,
    }),
  );
}
