/**
 * What a project has that could be pinned: skill folders anywhere under its skill roots (manifest
 * bundles and Agent Skills folders; skill-roots.ts), and behaviour pack files directly in
 * manifests/packs/. A provenact repository keeps its bundles at skills/<id>/<version>/. Symbolic
 * links are never followed, and .git/, node_modules/ and .skillctl/ are never entered.
 */
import { join } from 'node:path';
import { comparePaths } from '../digest/index.js';
import { asyncDirOps, EXCLUDED_DIRS, MANIFEST_NAMES, type DirOps } from '../bundle/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { PACK_EXTENSIONS } from './pack-doc.js';
import { DEFAULT_SKILL_ROOTS } from './skill-roots.js';

export const MANIFESTS_DIR = 'manifests';
export const PACKS_DIR = 'manifests/packs';

/**
 * Root files that make a directory a skill folder when searching: a manifest, or `SKILL.md`
 * spelt exactly so. A lowercase `skill.md` (which `validate` accepts with a warning) is not
 * searched for: other documents use that name (the registry's capability folders do), and a
 * folder named on the command line is still read with it.
 */
export const SKILL_FOLDER_MARKERS: readonly string[] = [...MANIFEST_NAMES, 'SKILL.md'];

interface DirEntries {
  readonly dirs: string[];
  readonly files: string[];
  /** Directories no search enters (.git, node_modules, .skillctl). */
  readonly excluded: string[];
}

async function entries(abs: string, ops: Pick<DirOps, 'readdir'>): Promise<DirEntries> {
  const out: DirEntries = { dirs: [], files: [], excluded: [] };
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
  }
  out.dirs.sort(comparePaths);
  out.files.sort(comparePaths);
  return out;
}

export interface Pinnable {
  /** Bundle directories, relative to the root, sorted. */
  readonly bundles: readonly string[];
  /** Pack files, relative to the root, sorted. */
  readonly packs: readonly string[];
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
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    // A directory the caller already verified as a bundle (a pinned source) is not read again.
    if (known.has(rel)) {
      found.push(rel);
      continue;
    }
    const { dirs, files, excluded } = await entries(join(root, ...rel.split('/')), ops);
    if (files.some((f) => SKILL_FOLDER_MARKERS.includes(f))) {
      found.push(rel);
      continue;
    }
    for (const d of dirs) stack.push(`${rel}/${d}`);
    if (rel !== dir) continue;
    for (const d of excluded) {
      const sub = `${rel}/${d}`;
      if (known.has(sub) || (await entries(join(root, ...sub.split('/')), ops)).files.some((f) => SKILL_FOLDER_MARKERS.includes(f))) found.push(sub);
    }
  }
  return found.sort(comparePaths);
}

/** Pack files: `*.yaml`, `*.yml` and `*.json` directly in `<root>/manifests/packs/`. */
export async function findPacks(root: string, ops: Pick<DirOps, 'readdir'> = asyncDirOps): Promise<string[]> {
  const { files } = await entries(join(root, ...PACKS_DIR.split('/')), ops);
  return files.filter((f) => PACK_EXTENSIONS.some((ext) => f.endsWith(ext))).map((f) => `${PACKS_DIR}/${f}`);
}

/**
 * Skill folders under every root in `roots` (relative to `root`), sorted, each once: roots may
 * overlap, and a folder found inside another skill folder is part of that one.
 */
export async function findSkillFolders(
  root: string,
  roots: readonly string[] = DEFAULT_SKILL_ROOTS,
  ops: Pick<DirOps, 'readdir'> = asyncDirOps,
  known: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const found = new Set((await Promise.all(roots.map((r) => findBundles(root, r, ops, known)))).flat());
  return [...found].sort(comparePaths).filter((f) => !insideAny(f, found));
}

/** Whether a proper ancestor of `path` is in `folders`: one lookup a level, not a scan of them all. */
function insideAny(path: string, folders: ReadonlySet<string>): boolean {
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) if (folders.has(path.slice(0, cut))) return true;
  return false;
}

/**
 * `known`: directories already verified as bundles (their own listing found the manifest).
 * `roots`: the project's skill roots (default: the default list).
 */
export async function findPinnable(
  root: string,
  ops: Pick<DirOps, 'readdir'> = asyncDirOps,
  known: ReadonlySet<string> = new Set(),
  roots: readonly string[] = DEFAULT_SKILL_ROOTS,
): Promise<Pinnable> {
  const [bundles, packs] = await Promise.all([findSkillFolders(root, roots, ops, known), findPacks(root, ops)]);
  // A packs directory that is itself a bundle's subdirectory is part of that bundle.
  const folders = new Set(bundles);
  return { bundles, packs: packs.filter((p) => !insideAny(p, folders)) };
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
