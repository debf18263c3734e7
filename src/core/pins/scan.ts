/**
 * What a project has that could be pinned: skill bundles anywhere under manifests/, and behaviour
 * pack files directly in manifests/packs/. A provenact repository keeps its bundles at
 * skills/<id>/<version>/. Symbolic links are never followed, and .git/, node_modules/ and
 * .skillctl/ are never entered.
 */
import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { comparePaths } from '../digest/index.js';
import { EXCLUDED_DIRS, MANIFEST_NAMES } from '../bundle/index.js';
import { errnoCode } from '../errors.js';
import { PACK_EXTENSIONS } from './pack-doc.js';

export const MANIFESTS_DIR = 'manifests';
export const PACKS_DIR = 'manifests/packs';

interface DirEntries {
  readonly dirs: string[];
  readonly files: string[];
}

async function entries(abs: string): Promise<DirEntries> {
  const out: DirEntries = { dirs: [], files: [] };
  let handle;
  try {
    handle = await opendir(abs);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return out;
    throw err;
  }
  for await (const ent of handle) {
    if (ent.isDirectory() && !EXCLUDED_DIRS.has(ent.name)) out.dirs.push(ent.name);
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
 * Bundles under `<root>/<dir>` (default manifests/): every directory holding skill.yaml or
 * skill.json. A bundle's own subdirectories are part of it and are not searched further.
 */
export async function findBundles(root: string, dir: string = MANIFESTS_DIR): Promise<string[]> {
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    const { dirs, files } = await entries(join(root, ...rel.split('/')));
    if (files.some((f) => (MANIFEST_NAMES as readonly string[]).includes(f))) {
      found.push(rel);
      continue;
    }
    for (const d of dirs) stack.push(`${rel}/${d}`);
  }
  return found.sort(comparePaths);
}

/** Pack files: `*.yaml`, `*.yml` and `*.json` directly in `<root>/manifests/packs/`. */
export async function findPacks(root: string): Promise<string[]> {
  const { files } = await entries(join(root, ...PACKS_DIR.split('/')));
  return files.filter((f) => PACK_EXTENSIONS.some((ext) => f.endsWith(ext))).map((f) => `${PACKS_DIR}/${f}`);
}

export async function findPinnable(root: string): Promise<Pinnable> {
  const [bundles, packs] = await Promise.all([findBundles(root), findPacks(root)]);
  // A packs directory that is itself a bundle's subdirectory is part of that bundle.
  return { bundles, packs: packs.filter((p) => !bundles.some((b) => p.startsWith(`${b}/`))) };
}

/** Provenact bundle directories: skills/<id>/<version>/ holding manifest.json. */
export async function findProvenactBundles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const id of (await entries(join(root, 'skills'))).dirs) {
    for (const version of (await entries(join(root, 'skills', id))).dirs) {
      if ((await entries(join(root, 'skills', id, version))).files.includes('manifest.json')) out.push(`skills/${id}/${version}`);
    }
  }
  return out.sort(comparePaths);
}
