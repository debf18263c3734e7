/**
 * What `pin` was asked to pin: skill folders (manifest bundles and Agent Skills folders), archives
 * and pack files, each as a source path relative to the project root. Directories are searched
 * for skill folders (and, under manifests/packs, pack files); `--all` is every skill folder under
 * the project's skill roots and every pack in manifests/packs/.
 */
import { pushAll } from '../findings.js';
import { lstat, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { SKILL_MD_NAMES } from '../agent-skills/index.js';
import { MANIFEST_NAMES } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';
import { PACK_EXTENSIONS } from './pack-doc.js';
import { toSource, unsafeSourcePath } from './paths.js';
import { kindOfDir } from '../skill-gate/index.js';
import { findBundles, findPacks, findPinnable } from './scan.js';
import { DEFAULT_SKILL_ROOTS } from './skill-roots.js';

/** File names that stand for their folder on the command line. */
const FOLDER_FILES: readonly string[] = [...MANIFEST_NAMES, ...SKILL_MD_NAMES];

export type PinTarget =
  /** A skill folder on disk: a manifest bundle or an Agent Skills folder (told apart when pinned). */
  | { readonly kind: 'bundle'; readonly source: string }
  | { readonly kind: 'archive'; readonly source: string }
  | { readonly kind: 'pack'; readonly source: string };

export interface Targets {
  readonly targets: readonly PinTarget[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The first folder of `source` (below `root`) that is a symbolic link, or undefined. A pin
 * through a link records a path whose files are elsewhere: an agent host follows it, while the
 * unpinned search and a checkout of another commit may not lead to the same files.
 */
async function linkOnTheWay(root: string, source: string): Promise<string | undefined> {
  const parts = source.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join('/');
    if ((await lstat(join(root, ...parts.slice(0, i))).catch(() => undefined))?.isSymbolicLink() === true) return at;
  }
  return undefined;
}

/** Expands command-line paths (relative to `cwd`) into targets inside `root`; `all` adds what `roots` hold. */
export async function collectTargets(root: string, cwd: string, args: readonly string[], all: boolean, roots: readonly string[] = DEFAULT_SKILL_ROOTS): Promise<Targets> {
  const targets: PinTarget[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (t: PinTarget): void => {
    if (!seen.has(t.source)) {
      seen.add(t.source);
      targets.push(t);
    }
  };
  if (all) {
    const found = await findPinnable(root, undefined, undefined, roots);
    for (const b of found.bundles) add({ kind: 'bundle', source: b });
    for (const p of found.packs) add({ kind: 'pack', source: p });
    // A link or submodule in a skill root holds a skill that cannot be pinned where it is.
    pushAll(diagnostics, found.diagnostics);
  }
  for (const arg of args) {
    const abs = isAbsolute(arg) ? arg : join(cwd, arg);
    let st;
    try {
      st = await stat(abs);
    } catch (err) {
      const code = errnoCode(err);
      diagnostics.push(diag(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `${arg} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`, { file: arg }));
      continue;
    }
    const name = basename(abs);
    const target = st.isFile() && FOLDER_FILES.includes(name) ? dirname(abs) : abs;
    const source = toSource(root, target);
    const unsafe = source === undefined ? 'it is outside the project root' : unsafeSourcePath(source);
    if (source === undefined || unsafe !== undefined) {
      diagnostics.push(diag('PIN_SOURCE_INVALID', `${arg} cannot be pinned: ${unsafe ?? ''}`, { file: arg, hint: `sources are paths inside ${root}` }));
      continue;
    }
    const link = await linkOnTheWay(root, source);
    if (link !== undefined) {
      diagnostics.push(
        diag('PIN_SOURCE_INVALID', `${arg} cannot be pinned: ${link} is a symbolic link`, {
          file: arg,
          hint: `pin the folder it leads to, or commit the folder itself in its place: verify-pins refuses a skill folder that is a link (PIN_UNSEARCHABLE)`,
        }),
      );
      continue;
    }
    if (st.isDirectory() || target !== abs) {
      // A folder named on the command line is read as validate reads it (skill.md included).
      if ((await kindOfDir(target).catch(() => undefined)) !== undefined) {
        add({ kind: 'bundle', source });
        continue;
      }
      const bundles = await findBundles(root, source);
      const packs = (await findPacks(root)).filter((p) => p.startsWith(`${source}/`) && !bundles.some((b) => p.startsWith(`${b}/`)));
      if (bundles.length === 0 && packs.length === 0) diagnostics.push(diag('NO_INPUT', `no skill folder (skill.yaml, skill.json, SKILL.md) or pack under ${arg}`, { file: arg }));
      for (const b of bundles) add({ kind: 'bundle', source: b });
      for (const p of packs) add({ kind: 'pack', source: p });
    } else if (name.endsWith('.tgz')) {
      add({ kind: 'archive', source });
    } else if (PACK_EXTENSIONS.some((ext) => name.endsWith(ext))) {
      add({ kind: 'pack', source });
    } else {
      diagnostics.push(diag('USAGE', `${arg} is not a skill folder, a .tgz archive or a pack file (.yaml, .yml, .json)`, { file: arg }));
    }
  }
  return { targets, diagnostics };
}
