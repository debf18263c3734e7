/**
 * Names a checkout on another file system takes for a path the lock rests on. A commit may hold
 * `.Claude/skills/evil/SKILL.md` beside `.claude/skills/`, or `manifests/Hello/run.js` beside
 * the pinned `manifests/hello/`: on Linux (where CI verifies) these are other folders, outside
 * every skill root and every pin, so nothing checks them; on macOS and Windows, whose file
 * systems ignore case (and, on macOS, Unicode normalisation and some invisible characters; on
 * Windows, trailing dots and spaces), git checks them out into the very folders the lock pins or
 * searches, where an agent loads them. So every entry along the path of a skill root, a pinned
 * source, the packs folder and the lock, spelt otherwise but taken for it, is a finding.
 *
 * So is a `.gitattributes` spelt otherwise (`.GITATTRIBUTES`) in any folder along those paths
 * (one inside a pinned folder is pinned with it): git looks for a folder's attributes in the
 * index by their exact name and, finding none, opens `.gitattributes` in the working tree, which
 * such a file system answers with `.GITATTRIBUTES`. Its filter then runs at every later checkout
 * of a pinned file below it, while verify-pins asks git about `.gitattributes` spelt so
 * (checkout.ts).
 */
import { basename, join } from 'node:path';
import { foldName, type DirOps } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';

/** Re-exported: the fold lives with the bundle listings, which refuse two names it takes for one. */
export { foldName };

/** The name git reads a folder's attributes from. */
const ATTRIBUTES = '.gitattributes';

async function names(ops: Pick<DirOps, 'readdir'>, abs: string): Promise<readonly string[] | undefined> {
  try {
    return (await ops.readdir(abs)).map((e) => e.name);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read the directory ${abs}: ${code ?? String(err)}`, { cause: err });
  }
}

/**
 * Entries under `root` that another file system takes for a segment of one of `anchors` (POSIX
 * paths relative to `root`: skill roots, pinned sources) without being spelt so, one
 * `PIN_PATH_ALIAS` each, sorted. Only the directories along the anchors are listed; an alias is
 * reported, not entered.
 */
export async function findAliases(root: string, anchors: readonly string[], ops: Pick<DirOps, 'readdir'>): Promise<Diagnostic[]> {
  const listed = new Map<string, Promise<readonly string[] | undefined>>();
  const list = (rel: string): Promise<readonly string[] | undefined> => {
    let p = listed.get(rel);
    if (p === undefined) listed.set(rel, (p = names(ops, rel === '' ? root : join(root, ...rel.split('/')))));
    return p;
  };
  const found = new Map<string, string>();
  const note = (dir: string, entries: readonly string[], want: string): void => {
    const key = foldName(want);
    for (const name of entries) {
      const path = dir === '' ? name : `${dir}/${name}`;
      if (name !== want && foldName(name) === key && !found.has(path)) found.set(path, dir === '' ? want : `${dir}/${want}`);
    }
  };
  // Each folder once: many anchors share the folders above them.
  const attributesLooked = new Set<string>();
  for (const anchor of anchors) {
    const parts = anchor.split('/').filter((p) => p !== '' && p !== '.');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const want = parts[i] as string;
      const entries = await list(dir);
      if (entries === undefined) break;
      if (!attributesLooked.has(dir)) {
        attributesLooked.add(dir);
        note(dir, entries, ATTRIBUTES);
      }
      note(dir, entries, want);
      if (!entries.includes(want)) break;
    }
  }
  return [...found]
    .sort(([a], [b]) => comparePaths(a, b))
    .map(([path, meant]) =>
      basename(meant) === ATTRIBUTES
        ? diag('PIN_PATH_ALIAS', `${path} is ${meant} on a file system that ignores case or normalises names (macOS, Windows): git there reads its attributes for the files below it, which verify-pins does not apply`, {
            file: path,
            hint: `rename it to ${meant}, or remove it: its filter, encoding or eol would decide the bytes a checkout there writes for pinned files`,
          })
        : diag('PIN_PATH_ALIAS', `${path} is ${meant} on a file system that ignores case or normalises names (macOS, Windows): a checkout there puts its files in ${meant}`, {
            file: path,
            hint: `rename or remove ${path}: what it holds is neither pinned nor searched, yet lands in ${meant} on such a checkout`,
          }),
    );
}

