/**
 * The protected names that already exist below a process's grants, away from the places every
 * run holds (the project root, the home, the run's own paths). The gate judges every path a
 * built-in or a WebAssembly module touches by its names, in every directory; bubblewrap and a
 * container engine hold only the paths they are given. So a python skill granted `~/code` could
 * rewrite `~/code/other/.git/config` (a `core.fsmonitor` that the user's next `git status` there
 * runs, outside every sandbox) or read `~/code/other/.skillctl/keys/`. A process run therefore
 * looks below its grants first: each such path found is held as the root's are (read-only, the
 * directories on the way pinned, what is planted where one was missing removed, keys hidden).
 *
 * The walk is bounded (WALK_MAX_DIRS directories for the whole run, breadth first so that the
 * nearest are found first) and does not enter `node_modules` and the like (NOT_ENTERED), `.git`,
 * nor a directory protected whole. A write grant it could not walk whole is the caller's to
 * refuse: an earlier skill granted it can fill it with empty directories until the bound hides a
 * repository. A read grant is walked only for secret keys, and only through directories this
 * user owns: keys are written by their owner, and a grant of `/usr` would otherwise spend the
 * budget on every run. Both walks also note the Unix sockets they pass, which the sandbox covers
 * (host-sockets.ts): a read-only mount does not stop connect(). Those beyond the walk stay.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { TOOL_FILLED_DIRS } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { within } from '../fs/index.js';
import { PROTECTED_DIRS, PROTECTED_FILE_NAMES, SECRET_DIRS } from '../policy/index.js';

/** Directories a run reads at most while looking below its grants before the program starts. */
export const WALK_MAX_DIRS = 10_000;
/**
 * Directories read at most looking for what the program planted, once it ended: the grant held
 * at most WALK_MAX_DIRS before, so the rest is what the program made.
 */
export const AFTER_MAX_DIRS = 100_000;
/**
 * Of WALK_MAX_DIRS, what read grants may take: they are searched for keys only, which lie near a
 * project's top, and the default policy grants the working directory, a home when skillctl is
 * started there.
 */
export const READ_MAX_DIRS = 2_000;

const fold = (name: string): string => name.toLowerCase();
const FILE_NAMES = new Set(PROTECTED_FILE_NAMES.map(fold));
/** By first segment: the rest of each protected directory path, and of each secret one. */
function byFirst(paths: readonly (readonly string[])[]): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const p of paths) {
    const [first, ...rest] = p;
    if (first === undefined) continue;
    const key = fold(first);
    out.set(key, [...(out.get(key) ?? []), rest]);
  }
  return out;
}
const DIRS = byFirst(PROTECTED_DIRS);
const SECRETS = byFirst(SECRET_DIRS);
/**
 * Not entered: what package managers and tools fill (often thousands of directories, none a place
 * a person runs git or a tool in), `.git`, and the directories held whole already. A held name
 * cannot be moved into one of them: the directories between a grant and each name held are mount
 * points for the run (protect-mounts.ts).
 */
const NOT_ENTERED = new Set([
  'node_modules',
  ...TOOL_FILLED_DIRS,
  '.git',
  ...PROTECTED_DIRS.filter((d) => d.length === 1).map((d) => fold(d[0] as string)),
]);

export interface NestedNames {
  /** The paths to hold, found below the grants (absolute; some may not exist, see planted.ts). */
  readonly paths: string[];
  /**
   * The Unix sockets found below the grants, read and write alike (host-sockets.ts covers each):
   * a read-only mount does not stop connect().
   */
  readonly sockets: string[];
  /** Grants not walked whole (the bound stopped it, or `/`): names below what was walked are not held. */
  readonly unwalked: Unwalked[];
}

export interface Unwalked {
  readonly grant: string;
  /** A write grant: every name below it counts, and a process could rewrite one not found. */
  readonly write: boolean;
}

interface Walk {
  readonly root: string;
  /** `write`: every protected name; `read`: secret keys only, through directories `uid` owns. */
  readonly mode: 'write' | 'read';
}

/**
 * The entries of `dir`: none when it is gone or no longer a directory (a skill may be changing the
 * tree meanwhile), undefined when it is there but cannot be listed. The owner of a directory can
 * take its read bit away and give it back, so a write grant's walk that meets one is not whole.
 */
function entries(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = errnoCode(err);
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
  }
}

function ownedBy(dir: string, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  try {
    return statSync(dir).uid === uid;
  } catch {
    return false;
  }
}

/** Adds to `paths` what the protected directories (a write walk's) and secret ones named `name` hold at `here`. */
function namedBelow(here: string, name: string, mode: Walk['mode'], paths: Set<string>): void {
  for (const rest of (mode === 'write' ? DIRS.get(name) : undefined) ?? []) paths.add(join(here, ...rest));
  for (const rest of SECRETS.get(name) ?? []) paths.add(join(here, ...rest));
}

/**
 * The protected paths below `write` (every name) and the secret-key directories below `read`
 * (each grant a real path; `/` is not walked, `cwd` is in its place), within `maxDirs`
 * directories in all.
 */
export function nestedNames(
  grants: { readonly write: readonly string[]; readonly read: readonly string[] },
  opts: { readonly maxDirs?: number; readonly readMaxDirs?: number; readonly uid?: number | undefined; readonly cwd?: string } = {},
): NestedNames {
  const maxDirs = opts.maxDirs ?? WALK_MAX_DIRS;
  let readBudget = opts.readMaxDirs ?? READ_MAX_DIRS;
  const uid = 'uid' in opts ? opts.uid : process.getuid?.();
  const unwalked: Unwalked[] = [];
  // Each grant once, not one inside another. `/` is never walked, and says so; the working
  // directory, where the run's projects are, is walked in its place.
  const top = (list: readonly string[], write: boolean): string[] => {
    const distinct = [...new Set(list)];
    if (distinct.includes('/')) {
      unwalked.push({ grant: '/', write });
      if (opts.cwd !== undefined && opts.cwd !== '/') distinct.push(opts.cwd);
    }
    return distinct.filter((g, i) => g !== '/' && distinct.indexOf(g) === i && !distinct.some((o) => o !== g && o !== '/' && within(g, o)));
  };
  const write = top(grants.write, true);
  // A read grant inside a write grant (the working directory, in place of `/`, among them) is walked as that.
  const read = grants.write.includes('/') ? [] : top(grants.read, false).filter((r) => !write.some((w) => within(r, w)));
  const walks: Walk[] = [...write.map((root) => ({ root, mode: 'write' as const })), ...read.map((root) => ({ root, mode: 'read' as const }))];
  const paths = new Set<string>();
  const sockets = new Set<string>();
  let budget = maxDirs;
  for (const walk of walks) {
    // The grant's own name counts as an entry's would: a grant of `sub/.git` holds its hooks and
    // config, one of `sub/.skillctl` hides its keys.
    namedBelow(walk.root, fold(basename(walk.root)), walk.mode, paths);
    const queue = [walk.root];
    let next = 0;
    let whole = true;
    for (; next < queue.length && budget > 0 && (walk.mode === 'write' || readBudget > 0); next++) {
      const dir = queue[next] as string;
      budget--;
      if (walk.mode === 'read') readBudget--;
      if (walk.mode === 'read' && !ownedBy(dir, uid)) continue;
      const listed = entries(dir);
      // Unreadable in a read grant, it is unreadable to the program too (the mount is read-only:
      // no chmod there); in a write grant the program may give the read bit back.
      if (listed === undefined) whole &&= walk.mode === 'read';
      for (const e of listed ?? []) {
        const name = fold(e.name);
        const here = join(dir, e.name);
        // The root's own names are held by every run already; a second entry costs nothing.
        if (walk.mode === 'write' && FILE_NAMES.has(name)) paths.add(here);
        namedBelow(here, name, walk.mode, paths);
        if (e.isSocket()) sockets.add(here);
        if (e.isDirectory() && !NOT_ENTERED.has(name)) queue.push(here);
      }
    }
    if (next < queue.length || !whole) unwalked.push({ grant: walk.root, write: walk.mode === 'write' });
  }
  return { paths: [...paths].sort(), sockets: [...sockets].sort(), unwalked };
}

/** A path in a repository's git directory (`sub/.git/config`): what `git clone` and `git init` make. */
const inGitDir = (path: string): boolean => path.split('/').some((segment) => fold(segment) === '.git');

/**
 * What a program planted below its write grants while it ran: the protected paths there now that
 * the walk before it did not list (`before`), such as `packages/web/.claude/skills/x/SKILL.md`,
 * which Claude Code loads when it works on files in `packages/web/`. A new repository's own git
 * paths are left: a skill may clone or make one, and git obeys it only when run inside it. `whole`
 * is false when the walk stopped at AFTER_MAX_DIRS: then what lies below went unseen.
 */
export function plantedBelow(before: ReadonlySet<string>, write: readonly string[], cwd: string, maxDirs = AFTER_MAX_DIRS): { readonly paths: string[]; readonly whole: boolean } {
  const after = nestedNames({ write, read: [] }, { cwd, maxDirs });
  // Paths derived from a name found (`.cargo/config.toml` below a `.cargo`) may not exist: the caller removes only what does.
  return { paths: after.paths.filter((p) => !before.has(p) && !inGitDir(p)), whole: !after.unwalked.some((u) => u.write && u.grant !== '/') };
}

/**
 * The protected paths found below a run's grants, with a diagnostic for each grant not walked
 * whole; `paths` is undefined when the run is refused: a write grant the walk could not look
 * through whole (RUN_GRANT_UNWALKED) would leave a repository below the bound writable, and an
 * earlier skill could have put it there by filling the grant with directories. A read grant not
 * walked whole is a warning (RUN_NESTED_UNCHECKED).
 */
export function heldBelowGrants(
  granted: { readonly fsWrite: readonly string[]; readonly fsRead: readonly string[] },
  cwd: string,
): { readonly paths: string[] | undefined; readonly sockets: string[]; readonly diagnostics: Diagnostic[] } {
  const found = nestedNames({ write: granted.fsWrite, read: granted.fsRead }, { cwd });
  const why = (grant: string): string =>
    grant === '/' ? 'the root is never walked (the working directory is, in its place)' : `it holds more than ${WALK_MAX_DIRS.toLocaleString('en-US')} directories outside node_modules and the like, or one this user may not list`;
  const diagnostics = found.unwalked.map(({ grant, write }) =>
    write
      ? diag('RUN_GRANT_UNWALKED', `fs.write ${grant} could not be looked through whole for the protected names below it (a repository's .git/config and hooks, an agent host's settings): ${why(grant)}; a program granted it could rewrite those the walk did not reach, so it is not started`, {
          hint: 'grant the program narrower folders to write, or remove what fills this one',
        })
      : diag('RUN_NESTED_UNCHECKED', `fs.read ${grant} was not looked through whole for secret keys (.skillctl/keys) below it: ${why(grant)}; those not found are readable to this program`, {
          hint: 'grant the program narrower folders to read',
        }),
  );
  return { paths: found.unwalked.some((u) => u.write) ? undefined : found.paths, sockets: found.sockets, diagnostics };
}
