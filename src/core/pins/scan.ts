/**
 * What a project has that could be pinned: skill folders anywhere under its skill roots (manifest
 * bundles and Agent Skills folders; skill-roots.ts) and under agent roots nested below its top
 * (nested-roots.ts), and behaviour pack files directly in manifests/packs/. A provenact
 * repository keeps its bundles at skills/<id>/<version>/. Symbolic links are never followed, and
 * .git/, node_modules/ and .skillctl/ are never entered.
 *
 * Never following a link must not mean never seeing one: an agent host follows them. A skill
 * folder committed as a link to a folder elsewhere (Claude Code loads it), a `SKILL.md` that is a
 * link to a file elsewhere, a submodule at a skill folder (its files are in another repository),
 * or a skill root behind a link or submodule would hold a skill no pin covers and no search
 * finds. Each is reported (`PIN_UNSEARCHABLE`): a link or submodule directly in a skill root, one
 * named like a skill file anywhere in the search, and a link or submodule on the way to a skill
 * root, unless it leads to another skill root, searched there (`.claude/skills` linked to
 * `../.agents/skills`).
 */
import { pushAll } from '../findings.js';
import { isAbsolute, join, relative, sep } from 'node:path';
import { comparePaths } from '../digest/index.js';
import { asyncDirOps, EXCLUDED_DIRS, foldName, MANIFEST_NAMES, type DirOps } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { findNestedRoots, NESTED_MAX_DIRS } from './nested-roots.js';
import { PACK_EXTENSIONS } from './pack-doc.js';
import { DEFAULT_SKILL_ROOTS, isAgentRoot } from './skill-roots.js';

export const MANIFESTS_DIR = 'manifests';
export const PACKS_DIR = 'manifests/packs';

/**
 * Root files that make a directory a skill folder when searching: a manifest, or `SKILL.md`
 * spelt exactly so. Under an agent root (`.claude/skills`, `.agents/skills`, skill-roots.ts)
 * any name a case-insensitive file system takes for one counts too (`skill.md`, `Skill.md`):
 * the agent host on macOS or Windows opens it as `SKILL.md`. Elsewhere a lowercase `skill.md`
 * (which `validate` accepts with a warning) is not searched for: other documents use that name
 * (the registry's capability folders under manifests/ do), and a folder named on the command
 * line is still read with it.
 */
export const SKILL_FOLDER_MARKERS: readonly string[] = [...MANIFEST_NAMES, 'SKILL.md'];
const FOLDED_MARKERS: ReadonlySet<string> = new Set(SKILL_FOLDER_MARKERS.map(foldName));
const foldedMarker = (name: string): boolean => FOLDED_MARKERS.has(foldName(name));
const exactMarker = (name: string): boolean => SKILL_FOLDER_MARKERS.includes(name);

interface DirEntries {
  readonly dirs: string[];
  readonly files: string[];
  /** Directories no search enters (.git, node_modules, .skillctl). */
  readonly excluded: string[];
  /** Symbolic links (in a git tree, submodules too): never followed. */
  readonly links: string[];
}

async function entries(abs: string, ops: Pick<DirOps, 'readdir'>): Promise<DirEntries> {
  const out: DirEntries = { dirs: [], files: [], excluded: [], links: [] };
  let list;
  try {
    list = await ops.readdir(abs);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return out;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read the directory ${abs}: ${code ?? String(err)}`, { cause: err });
  }
  for (const ent of list) {
    if (ent.isDirectory()) (EXCLUDED_DIRS.has(ent.name) ? out.excluded : out.dirs).push(ent.name);
    else if (ent.isFile()) out.files.push(ent.name);
    else if (ent.isSymbolicLink()) out.links.push(ent.name);
  }
  out.dirs.sort(comparePaths);
  out.files.sort(comparePaths);
  out.links.sort(comparePaths);
  return out;
}

/** `PIN_UNSEARCHABLE` for the link or submodule at `path`; `where` says why the search cares. */
function unsearchable(path: string, where: string): Diagnostic {
  return diag('PIN_UNSEARCHABLE', `${path} is a symbolic link or a submodule ${where}: an agent host follows it to files no pin covers and the unpinned search does not read`, {
    file: path,
    hint: `commit the folder or file itself in its place and pin it (skillctl pin), or remove ${path}`,
  });
}

export interface Pinnable {
  /** Bundle directories, relative to the root, sorted. */
  readonly bundles: readonly string[];
  /** Pack files, relative to the root, sorted. */
  readonly packs: readonly string[];
  /** Agent roots found below the project's top and searched too (nested-roots.ts), sorted. */
  readonly nestedRoots: readonly string[];
  /** Folders below the top holding a lock of their own, project roots of their own (nested-roots.ts), sorted. */
  readonly nestedProjects: readonly string[];
  /** What the search could not look into (`PIN_UNSEARCHABLE`), and a nested walk cut short. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Skill folders under one skill root, and the links the search met there (see `findBundles`). */
async function searchRoot(root: string, dir: string, ops: Pick<DirOps, 'readdir'>, known: ReadonlySet<string>, refused: Diagnostic[]): Promise<string[]> {
  const marker = isAgentRoot(dir) ? foldedMarker : exactMarker;
  const look = async (rel: string): Promise<DirEntries> => {
    const e = await entries(join(root, ...rel.split('/')), ops);
    for (const name of e.links) {
      if (rel === dir) refused.push(unsearchable(`${rel}/${name}`, `directly in the skill root ${dir}`));
      else if (foldedMarker(name)) refused.push(unsearchable(`${rel}/${name}`, 'named like a skill file'));
    }
    return e;
  };
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    // A directory the caller already verified as a bundle (a pinned source) is not read again:
    // its own listing refuses a link in it (BUNDLE_SYMLINK).
    if (known.has(rel)) {
      found.push(rel);
      continue;
    }
    const { dirs, files, excluded } = await look(rel);
    if (files.some(marker)) {
      found.push(rel);
      continue;
    }
    for (const d of dirs) stack.push(`${rel}/${d}`);
    if (rel !== dir) continue;
    for (const d of excluded) {
      const sub = `${rel}/${d}`;
      if (known.has(sub) || (await look(sub)).files.some(marker)) found.push(sub);
    }
  }
  return found;
}

/**
 * Skill folders under `<root>/<dir>` (default manifests/): every directory holding skill.yaml,
 * skill.json or SKILL.md. A folder's own subdirectories are part of it and are not searched further.
 * A folder directly in `dir` is one whatever its name: an agent host lists `.claude/skills/` and
 * loads `.claude/skills/node_modules/SKILL.md` as it loads any other, so a name the search does
 * not enter below the root (node_modules, .skillctl) would hide a skill from the unpinned check.
 * Those folders are only looked into for a marker, never searched further.
 */
export async function findBundles(
  root: string,
  dir: string = MANIFESTS_DIR,
  ops: Pick<DirOps, 'readdir'> = asyncDirOps,
  known: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  return (await searchRoot(root, dir, ops, known, [])).sort(comparePaths);
}

type RootState = { readonly kind: 'absent' | 'direct' } | { readonly kind: 'linked'; readonly at: string };
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

/** Whether the skill root `dir` exists as plain folders all the way, or is reached through a link (or submodule) at `at`. */
async function rootState(root: string, dir: string, ops: Pick<DirOps, 'lstat'>): Promise<RootState> {
  const parts = dir.split('/');
  for (let i = 1; i <= parts.length; i++) {
    let mode: number;
    try {
      ({ mode } = await ops.lstat(join(root, ...parts.slice(0, i))));
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent' };
      throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${parts.slice(0, i).join('/')}: ${code ?? String(err)}`, { cause: err });
    }
    if ((mode & S_IFMT) === S_IFLNK) return { kind: 'linked', at: parts.slice(0, i).join('/') };
    if ((mode & S_IFMT) !== S_IFDIR) return { kind: 'absent' };
  }
  return { kind: 'direct' };
}

/** Where the linked root `dir` leads, as a path from the project's top, or undefined (outside it, nowhere, below a submodule). */
async function linkTarget(root: string, dir: string, ops: Pick<DirOps, 'realpath'>): Promise<string | undefined> {
  try {
    const [real, realRoot] = await Promise.all([ops.realpath(join(root, ...dir.split('/'))), ops.realpath(root)]);
    const rel = relative(realRoot, real);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel.split(sep).join('/');
  } catch {
    return undefined;
  }
}

/**
 * Skill folders under every root in `roots` (relative to `root`) and the findings about what
 * could not be searched: the shared search of `findSkillFolders` and `findPinnable`.
 */
async function scanRoots(
  root: string,
  roots: readonly string[],
  ops: Pick<DirOps, 'readdir' | 'lstat' | 'realpath'>,
  known: ReadonlySet<string>,
): Promise<{ folders: string[]; diagnostics: Diagnostic[] }> {
  const states = await Promise.all(roots.map((r) => rootState(root, r, ops)));
  const direct = new Set(roots.filter((_, i) => states[i]?.kind === 'direct'));
  const diagnostics: Diagnostic[] = [];
  const searched = await Promise.all(
    roots.map(async (r, i) => {
      const state = states[i] as RootState;
      if (state.kind === 'absent') return [];
      if (state.kind === 'linked') {
        // A root linked to another root that is searched as plain folders is searched there.
        const target = await linkTarget(root, r, ops);
        if (target === undefined || target === r || !direct.has(target)) diagnostics.push(unsearchable(state.at, `on the way to the skill root ${r}`));
        return [];
      }
      const refused: Diagnostic[] = [];
      const folders = await searchRoot(root, r, ops, known, refused);
      pushAll(diagnostics, refused);
      return folders;
    }),
  );
  const found = new Set(searched.flat());
  return { folders: [...found].sort(comparePaths).filter((f) => !insideAny(f, found)), diagnostics: uniqueByFile(diagnostics) };
}

/** One finding a path: overlapping roots meet the same link. */
function uniqueByFile(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Diagnostic>();
  for (const d of diagnostics) if (!byFile.has(d.file as string)) byFile.set(d.file as string, d);
  return [...byFile.values()].sort((a, b) => comparePaths(a.file as string, b.file as string));
}

/**
 * Skill folders under every root in `roots` (relative to `root`), sorted, each once: roots may
 * overlap, and a folder found inside another skill folder is part of that one. A root reached
 * through a link or submodule is searched only where it leads to another root of `roots`.
 */
export async function findSkillFolders(
  root: string,
  roots: readonly string[] = DEFAULT_SKILL_ROOTS,
  ops: Pick<DirOps, 'readdir' | 'lstat' | 'realpath'> = asyncDirOps,
  known: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  return (await scanRoots(root, roots, ops, known)).folders;
}

/** Whether a proper ancestor of `path` is in `folders`: one lookup a level, not a scan of them all. */
function insideAny(path: string, folders: ReadonlySet<string>): boolean {
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) if (folders.has(path.slice(0, cut))) return true;
  return false;
}

/**
 * `known`: directories already verified as bundles (their own listing found the manifest).
 * `roots`: the project's skill roots (default: the default list); agent roots nested below the
 * top are searched too, found by a walk of at most `nestedMaxDirs` directories (nested-roots.ts;
 * a git tree's caller passes Infinity: its listing is in memory).
 */
export async function findPinnable(
  root: string,
  ops: Pick<DirOps, 'readdir' | 'lstat' | 'realpath'> = asyncDirOps,
  known: ReadonlySet<string> = new Set(),
  roots: readonly string[] = DEFAULT_SKILL_ROOTS,
  nestedMaxDirs: number = NESTED_MAX_DIRS,
): Promise<Pinnable> {
  const nested = await findNestedRoots(root, ops, nestedMaxDirs);
  const nestedRoots = nested.roots.filter((r) => !roots.includes(r));
  const [scan, packs] = await Promise.all([scanRoots(root, [...roots, ...nestedRoots], ops, known), findPacks(root, ops)]);
  const diagnostics = [...scan.diagnostics];
  if (nested.truncated) {
    diagnostics.push(
      diag('PIN_SEARCH_TRUNCATED', `the search for .claude/skills and .agents/skills folders below the project's top stopped after ${nestedMaxDirs} directories, or at one it could not read: skill folders below may not be checked`, {
        hint: 'verify the commit (skillctl verify-pins --staged, --rev HEAD), which walks the whole tree, or add the nested skill roots to skill_roots (skillctl pin --skill-roots)',
      }),
    );
  }
  // A packs directory that is itself a bundle's subdirectory is part of that bundle.
  const folders = new Set(scan.folders);
  return { bundles: scan.folders, packs: packs.filter((p) => !insideAny(p, folders)), nestedRoots, nestedProjects: nested.projects, diagnostics };
}

/** Pack files: `*.yaml`, `*.yml` and `*.json` directly in `<root>/manifests/packs/`. */
export async function findPacks(root: string, ops: Pick<DirOps, 'readdir'> = asyncDirOps): Promise<string[]> {
  const { files } = await entries(join(root, ...PACKS_DIR.split('/')), ops);
  return files.filter((f) => PACK_EXTENSIONS.some((ext) => f.endsWith(ext))).map((f) => `${PACKS_DIR}/${f}`);
}

/** Provenact bundle directories: skills/<id>/<version>/ holding manifest.json. */
export async function findProvenactBundles(root: string, ops: Pick<DirOps, 'readdir'> = asyncDirOps): Promise<string[]> {
  const out: string[] = [];
  for (const id of (await entries(join(root, 'skills'), ops)).dirs) {
    for (const version of (await entries(join(root, 'skills', id), ops)).dirs) {
      if ((await entries(join(root, 'skills', id, version), ops)).files.includes('manifest.json')) out.push(`skills/${id}/${version}`);
    }
  }
  return out.sort(comparePaths);
}
