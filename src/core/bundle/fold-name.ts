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
import { LOCK_MARKER } from '../fs/index.js';

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
  // Not /[. ]+$/: on a long run of dots and spaces not at the end, that pattern backtracks in the square of its length.
  let end = folded.length;
  while (end > 0 && (folded.charCodeAt(end - 1) === 0x2e || folded.charCodeAt(end - 1) === 0x20)) end--;
  // `.` and `..` stay themselves: they are never entries.
  return end === 0 ? folded : folded.slice(0, end);
}

/**
 * Whether `path` (POSIX, relative to a folder placed whole: a pulled skill) opens, on some common
 * file system, as a skillctl lock at any depth. The folder holding it is then a project root to
 * every skillctl started there, with that lock's pins, keys and policy, none of them the project's.
 */
export function opensAsLock(path: string): boolean {
  const key = path.split('/').map(foldName).join('/');
  return key === LOCK_MARKER || key.endsWith(`/${LOCK_MARKER}`);
}

/** The names in one folder of a listing: by their spelling, and by the folded spelling of the first spelt. */
interface Level {
  readonly spelt: Map<string, Name>;
  readonly folded: Map<string, string>;
}

/** A name of a folder, with the names below it once a path goes on past it. */
interface Name {
  below?: Level;
}

const newLevel = (): Level => ({ spelt: new Map(), folded: new Map() });

/**
 * `BUNDLE_PATH_COLLISION` for each path of `paths` (POSIX, relative to a bundle root) that folds
 * (every segment, `foldName`) to the same path as another spelt otherwise: reported once, at the
 * later spelling in path order, naming the first. A directory spelt two ways (`A/x`, `a/y`) is
 * one collision, at the directory. `under`: the folder the paths are in (a walk checks one
 * directory's names at a time), prefixed to the paths reported.
 */
export function pathCollisions(paths: Iterable<string>, under = ''): Diagnostic[] {
  // A tree of names: a key per folder's whole folded path cost a path n folders deep n times its
  // length (an archive's path may be 4096 bytes, 2048 folders). A name already spelt so in its
  // folder is not folded again: folding is the costly step, done once per name of the tree.
  const root = newLevel();
  const found = new Map<string, string>();
  for (const path of [...paths].sort(comparePaths)) {
    let above: Name | undefined;
    // Where the current name starts: every name before it is spelt as the first spelling was.
    let start = 0;
    for (const part of path.split('/')) {
      const level = above === undefined ? root : (above.below ??= newLevel());
      above = level.spelt.get(part);
      if (above === undefined) {
        const key = foldName(part);
        const first = level.folded.get(key);
        if (first !== undefined) {
          const spelt = path.slice(0, start + part.length);
          if (!found.has(spelt)) found.set(spelt, path.slice(0, start) + first);
          break;
        }
        level.folded.set(key, part);
        above = {};
        level.spelt.set(part, above);
      }
      start += part.length + 1;
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
