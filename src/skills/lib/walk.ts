/**
 * A deterministic directory walk for fs.read_tree and search.ripgrep's fallback: depth first,
 * siblings in byte order of their names (ripgrep's `--sort path` order), symlinks never
 * followed, `.gitignore` files inside the walked tree honoured (deeper files win, a negation
 * re-includes), hidden names skipped unless asked for. The walk goes through the checked file
 * layer: each directory is opened as a handle the policy judged (a directory swapped for a
 * symlink while the walk runs is not followed, it is a symlink), and its children are reached
 * only through that handle.
 */
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isFailure, type CheckedDir, type CheckedFile, type FsFailure, type PolicyDenial } from '../../core/policy/index.js';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  /** Path relative to the walk's root, `/`-separated. */
  readonly rel: string;
  /** Real path, for messages. */
  readonly abs: string;
  readonly kind: EntryKind;
  /** Size in bytes, for files. */
  readonly size?: number;
  /** 1 for the root's children. */
  readonly depth: number;
  /** Opens the file (kind `file`) through its directory's handle, for reading. */
  open(): Promise<CheckedFile | FsFailure>;
}

/** What a matcher says about a path: like ripgrep, a whitelist match beats hidden-ness. */
export type Verdict = 'ignore' | 'whitelist' | 'none';

export interface WalkOptions {
  readonly includeHidden: boolean;
  /** Directories deeper than this are listed but not entered. */
  readonly maxDepth: number;
  /** Skip `.git` directories whatever else says (fs.read_tree); search follows ripgrep instead. */
  readonly skipGitDir: boolean;
  /** Extra matcher consulted first (search globs); its path is `prefix + rel`. */
  readonly overrides?: (rel: string, isDir: boolean) => Verdict;
  /** Called when a directory at maxDepth holds entries the walk does not list. */
  readonly onDepthLimit?: () => void;
}

export type WalkItem = { readonly entry: WalkEntry } | { readonly denied: PolicyDenial; readonly abs: string };

const GITIGNORE_MAX_BYTES = 1024 * 1024;

interface Level {
  /** The directory of the .gitignore, relative to the root ('' for the root). */
  readonly dir: string;
  readonly ig: Ignore;
}

function byteOrder(a: Dirent, b: Dirent): number {
  return Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));
}

function gitignoreVerdict(levels: readonly Level[], rel: string, isDir: boolean): Verdict {
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i] as Level;
    const sub = level.dir === '' ? rel : rel.slice(level.dir.length + 1);
    try {
      const r = level.ig.test(isDir ? `${sub}/` : sub);
      if (r.ignored) return 'ignore';
      if (r.unignored) return 'whitelist';
    } catch {
      // a name the matcher cannot express matches no rule
    }
  }
  return 'none';
}

export function matcher(patterns: string): Ignore {
  return ignore({ ignorecase: false, allowRelativePaths: false }).add(patterns);
}

async function loadGitignore(dir: CheckedDir, names: readonly Dirent[]): Promise<Ignore | undefined> {
  const entry = names.find((d) => d.name === '.gitignore' && d.isFile());
  if (entry === undefined) return undefined;
  const file = await dir.file('.gitignore');
  if (isFailure(file)) return undefined;
  try {
    return matcher((await file.read(GITIGNORE_MAX_BYTES)).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

function kindOf(d: Dirent): EntryKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  return 'other';
}

/** Walks the tree below `root` (an open directory; the caller closes it). */
export async function* walk(root: CheckedDir, opts: WalkOptions): AsyncGenerator<WalkItem> {
  yield* walkDir(root, '', 0, [], opts);
}

async function* walkDir(dir: CheckedDir, rel: string, depth: number, levels: readonly Level[], opts: WalkOptions): AsyncGenerator<WalkItem> {
  let names: Dirent[];
  try {
    names = (await dir.entries()).sort(byteOrder);
  } catch {
    return; // unreadable directories are skipped, as ripgrep does
  }
  const own = await loadGitignore(dir, names);
  const here = own === undefined ? levels : [...levels, { dir: rel, ig: own }];
  for (const d of names) {
    const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
    const kind = kindOf(d);
    const isDir = kind === 'dir';
    if (opts.skipGitDir && isDir && d.name === '.git') continue;
    let verdict = opts.overrides?.(childRel, isDir) ?? 'none';
    if (verdict === 'none') verdict = gitignoreVerdict(here, childRel, isDir);
    if (verdict === 'ignore') continue;
    if (verdict === 'none' && !opts.includeHidden && d.name.startsWith('.')) continue;
    if (depth + 1 > opts.maxDepth) {
      opts.onDepthLimit?.();
      return;
    }
    const childAbs = join(dir.real, d.name);
    let size: number | undefined;
    if (kind === 'file') {
      const st = await dir.lstat(d.name);
      if ('kind' in st) continue; // vanished while walking
      size = st.size;
    }
    const open = (): Promise<CheckedFile | FsFailure> => dir.file(d.name);
    yield { entry: { rel: childRel, abs: childAbs, kind, depth: depth + 1, open, ...(size !== undefined ? { size } : {}) } };
    if (!isDir) continue;
    const sub = await dir.dir(d.name);
    if (isFailure(sub)) {
      if (sub.kind === 'denied') yield { denied: sub.decision, abs: childAbs };
      continue; // vanished, or swapped for something else while walking: not entered
    }
    try {
      yield* walkDir(sub, childRel, depth + 1, here, opts);
    } finally {
      await sub.close();
    }
  }
}
