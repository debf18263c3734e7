/**
 * Agent skill roots below the project's top: `packages/web/.claude/skills/` is loaded by Claude
 * Code when it works in `packages/web/` (a monorepo keeps one per package), yet the project's
 * skill roots are paths from its top, so a skill there was never searched and never reported
 * unpinned. The project is walked for directories named like an agent root (AGENT_SKILL_ROOTS)
 * and each one found is searched as a skill root too.
 *
 * The walk never enters what the bundle rules exclude (.git, node_modules, .skillctl) or what
 * package managers and build tools fill with thousands of directories; it never follows a link
 * (a link named `.claude` or `skills` on the way is returned as a root, which the scan reports).
 * The same walk notes every folder below the top that holds a lock (`sub/pins/skills.lock.json`):
 * skillctl started inside it takes it for the project root (fs/project.ts), and runs the skills
 * that lock pins, under its keys and its policy, none of which the top's lock vouches for.
 * On a working tree it reads at most `maxDirs` directories, breadth first; a git tree is a
 * listing in memory and is walked whole.
 */
import { join } from 'node:path';
import { EXCLUDED_DIRS, foldName, TOOL_FILLED_DIRS, type DirOps } from '../bundle/index.js';
import { comparePaths } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { AGENT_SKILL_ROOTS } from './skill-roots.js';

/** Directories a working-tree walk reads at most (as a run's walk below its grants, run/nested-names.ts). */
export const NESTED_MAX_DIRS = 10_000;

/** Not entered: excluded from every bundle, or filled by tools. */
const NOT_ENTERED: ReadonlySet<string> = new Set([...EXCLUDED_DIRS, ...TOOL_FILLED_DIRS]);

export interface NestedRoots {
  /** Agent roots found below the top (not the top-level ones), POSIX paths from the root, sorted. */
  readonly roots: readonly string[];
  /**
   * Folders below the top holding a lock at `pins/skills.lock.json` (any spelling a macOS or
   * Windows checkout opens as that, a file or a link), POSIX paths from the root, sorted.
   */
  readonly projects: readonly string[];
  /** The walk stopped at `maxDirs`, or a directory could not be read: roots below may be missing. */
  readonly truncated: boolean;
}

/** Each agent root's two folder names, folded as a macOS or Windows checkout compares them. */
const FOLDED_ROOTS: readonly (readonly [string, string, string])[] = AGENT_SKILL_ROOTS.map((r) => {
  const [first, second] = r.split('/') as [string, string];
  return [foldName(first), foldName(second), second];
});

/**
 * `rel/name` is an agent root below the top, or a link on the way to one (`.claude` or
 * `.claude/skills`). Names are compared as a macOS or Windows checkout compares them: an agent
 * working in `packages/web/` there loads `packages/web/.Claude/skills/` as `.claude/skills/`
 * (on the top's own roots, another spelling is PIN_PATH_ALIAS).
 */
function rootAt(rel: string, name: string, isDir: boolean): string | undefined {
  if (rel === '') return undefined;
  const path = `${rel}/${name}`;
  const cut = rel.lastIndexOf('/');
  const parent = foldName(rel.slice(cut + 1));
  const own = foldName(name);
  for (const [first, second, spelt] of FOLDED_ROOTS) {
    // The top's `.claude/skills` is a root of its own, not a nested one.
    if (cut !== -1 && parent === first && own === second) return path;
    // A link named like the root's first folder: the root is reached through it.
    if (!isDir && own === first) return `${path}/${spelt}`;
  }
  return undefined;
}

const LOCK_DIR = foldName('pins');
const LOCK_NAME = foldName('skills.lock.json');

/**
 * The folder that the entry `name` of `rel` makes a project root, or undefined: a lock (a file or
 * a link) in a `pins` folder below the top, or a `pins` below the top that is a link or a
 * submodule, which leads to a lock the walk does not follow.
 */
function projectAt(rel: string, name: string, isDir: boolean, isLink: boolean): string | undefined {
  if (isLink && rel !== '' && foldName(name) === LOCK_DIR) return rel;
  const cut = rel.lastIndexOf('/');
  if (isDir || cut === -1 || foldName(rel.slice(cut + 1)) !== LOCK_DIR || foldName(name) !== LOCK_NAME) return undefined;
  return rel.slice(0, cut);
}

/** Agent roots and nested project roots below the top of `root` (see the module comment). */
export async function findNestedRoots(root: string, ops: Pick<DirOps, 'readdir'>, maxDirs: number = NESTED_MAX_DIRS): Promise<NestedRoots> {
  const found = new Set<string>();
  const projects = new Set<string>();
  const queue = [''];
  let truncated = false;
  let read = 0;
  for (let i = 0; i < queue.length; i++) {
    if (read++ >= maxDirs) {
      truncated = true;
      break;
    }
    const rel = queue[i] as string;
    let list;
    try {
      list = await ops.readdir(rel === '' ? root : join(root, ...rel.split('/')));
    } catch (err) {
      const code = errnoCode(err);
      // Gone since its parent was listed: nothing there. Unreadable: said, not fatal.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') truncated = true;
      continue;
    }
    for (const ent of list) {
      const dir = ent.isDirectory();
      const project = projectAt(rel, ent.name, dir, ent.isSymbolicLink());
      if (project !== undefined) projects.add(project);
      if (!dir && !ent.isSymbolicLink()) continue;
      const at = rootAt(rel, ent.name, dir);
      if (at !== undefined) found.add(at);
      if (dir && !NOT_ENTERED.has(ent.name)) queue.push(rel === '' ? ent.name : `${rel}/${ent.name}`);
    }
  }
  return { roots: [...found].sort(comparePaths), projects: [...projects].sort(comparePaths), truncated };
}
