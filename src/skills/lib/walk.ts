/**
 * A deterministic directory walk for fs.read_tree and search.ripgrep's fallback: depth first,
 * siblings in byte order of their names (ripgrep's `--sort path` order), symlinks never
 * followed, `.gitignore` files inside the walked tree honoured (deeper files win, a negation
 * re-includes), hidden names skipped unless asked for. Each directory is checked with the host
 * policy before it is read.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { PolicyDecision } from '../../core/run/index.js';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  /** Path relative to the walk's root, `/`-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly kind: EntryKind;
  /** Size in bytes, for files. */
  readonly size?: number;
  /** 1 for the root's children. */
  readonly depth: number;
}

/** What a matcher says about a path: like ripgrep, a whitelist match beats hidden-ness. */
export type Verdict = 'ignore' | 'whitelist' | 'none';

export interface WalkOptions {
  readonly includeHidden: boolean;
  /** Directories deeper than this are listed but not entered. */
  readonly maxDepth: number;
  /** Skip `.git` directories whatever else says (fs.read_tree); search follows ripgrep instead. */
  readonly skipGitDir: boolean;
  /** Asked before each directory is read; a denial ends the walk. */
  readonly checkDir: (abs: string) => Promise<PolicyDecision>;
  /** Extra matcher consulted first (search globs); its path is `prefix + rel`. */
  readonly overrides?: (rel: string, isDir: boolean) => Verdict;
  /** Called when a directory at maxDepth holds entries the walk does not list. */
  readonly onDepthLimit?: () => void;
}

export type WalkItem = { readonly entry: WalkEntry } | { readonly denied: Extract<PolicyDecision, { allowed: false }>; readonly abs: string };

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

async function loadGitignore(dirAbs: string, names: readonly Dirent[]): Promise<Ignore | undefined> {
  const entry = names.find((d) => d.name === '.gitignore' && d.isFile());
  if (entry === undefined) return undefined;
  try {
    const text = await readFile(join(dirAbs, '.gitignore'));
    return matcher(text.subarray(0, GITIGNORE_MAX_BYTES).toString('utf8'));
  } catch {
    return undefined;
  }
}

function kindOf(d: Dirent): EntryKind {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  return 'other';
}

export async function* walk(root: string, opts: WalkOptions): AsyncGenerator<WalkItem> {
  yield* walkDir(root, '', 0, [], opts);
}

async function* walkDir(abs: string, rel: string, depth: number, levels: readonly Level[], opts: WalkOptions): AsyncGenerator<WalkItem> {
  const decision = await opts.checkDir(abs);
  if (!decision.allowed) {
    yield { denied: decision, abs };
    return;
  }
  let names: Dirent[];
  try {
    names = (await readdir(abs, { withFileTypes: true })).sort(byteOrder);
  } catch {
    return; // unreadable directories are skipped, as ripgrep does
  }
  const own = await loadGitignore(abs, names);
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
    const childAbs = join(abs, d.name);
    let size: number | undefined;
    if (kind === 'file') {
      try {
        size = (await lstat(childAbs)).size;
      } catch {
        continue; // vanished while walking
      }
    }
    yield { entry: { rel: childRel, abs: childAbs, kind, depth: depth + 1, ...(size !== undefined ? { size } : {}) } };
    if (isDir) yield* walkDir(childAbs, childRel, depth + 1, here, opts);
  }
}
