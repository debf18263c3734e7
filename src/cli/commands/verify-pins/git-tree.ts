/**
 * The tree `verify-pins --staged` or `--rev REV` verifies, read with git plumbing into memory,
 * and the `DirOps` the pin verifiers read it through: nothing in the working tree is read. The
 * index is GIT_INDEX_FILE when git set it (a hook of `git commit -a` or `git commit <paths>` sees
 * the temporary index being committed), else the repository's index.
 */
import { join, posix } from 'node:path';
import { DEFAULT_ARCHIVE_BOUNDS, inflateLimit } from '../../../core/archive/index.js';
import type { DirOps } from '../../../core/bundle/index.js';
import { parseLsFiles, parseLsTree, toGitTree, treeDirOps, type GitTree, type ListedEntry, type Parsed } from '../../../core/git-tree/index.js';
import { LOCK_MARKER } from '../../../core/fs/index.js';
import { catFile, type BatchReader } from './cat-file.js';
import { checkAttributes, type AttributeAnswers } from './check-attr.js';
import { refuseAmbiguousRev } from './rev-refs.js';
import { firstLine, openGit, unreadable, type Git } from '../../git-run.js';

/** A listing of more than this is refused rather than held: about two million paths. */
const LISTING_MAX = 256 * 1024 * 1024;
/** A whole blob read into memory is bounded as an archive read into memory is. */
const MAX_READ = inflateLimit(DEFAULT_ARCHIVE_BOUNDS);

export type TreeChoice = { readonly staged: true } | { readonly rev: string };

export interface OpenedTree {
  readonly tree: GitTree;
  /**
   * The tree the changes are relative to, read when asked (only a failed pin needs it): HEAD for
   * the index, the first parent for a commit; undefined for a root commit or an unborn branch.
   */
  loadBase(): Promise<GitTree | undefined>;
  /** How the base is named in messages. */
  readonly baseLabel: string;
  /** The top of the work tree (the git directory of a bare repository): the name the tree's paths hang from. */
  readonly top: string;
  /** The working directory's place in the tree, '' or ending in '/'. */
  readonly prefix: string;
  readonly ops: DirOps;
  /** How the tree is named in output: `index`, or the commit id. */
  readonly label: string;
  /** The attributes `names` that the tree's own .gitattributes give each of `paths`, paths of the tree (check-attr.ts). */
  attributes(paths: readonly string[], names: readonly string[]): Promise<AttributeAnswers>;
  close(): void;
}

/** The lines of a git answer; undefined when a path in it held a newline (then it cannot be told apart). */
function lines(out: Buffer, count: number): string[] | undefined {
  const text = out.toString('utf8');
  if (!text.endsWith('\n')) return undefined;
  const ls = text.slice(0, -1).split('\n');
  return ls.length === count ? ls : undefined;
}

async function place(git: Git, staged: boolean): Promise<{ top: string; prefix: string }> {
  const bare = await git.run(['rev-parse', '--is-bare-repository', '--absolute-git-dir'], 64 * 1024);
  if (bare.code !== 0) throw unreadable(`not inside a git repository: ${firstLine(bare)}`, 'run verify-pins --staged or --rev inside the repository to check');
  const [isBare, gitDir] = lines(bare.stdout, 2) ?? [];
  if (gitDir === undefined) throw unreadable('git rev-parse gave an answer that is not understood (a path holding a newline?)');
  if (isBare === 'true') {
    if (staged) throw unreadable('a bare repository has no index to verify', 'use --rev REV');
    return { top: gitDir, prefix: '' };
  }
  const where = await git.run(['rev-parse', '--show-toplevel', '--show-prefix'], 64 * 1024);
  const [top, prefix] = (where.code === 0 ? lines(where.stdout, 2) : undefined) ?? [];
  if (top === undefined || prefix === undefined) {
    if (staged) throw unreadable(`the work tree cannot be located: ${firstLine(where) || 'an answer that is not understood'}`);
    // Inside the git directory of a work tree: a commit can still be read.
    return { top: gitDir, prefix: '' };
  }
  return { top, prefix };
}

async function listing(git: Git, args: readonly string[], parse: (out: Buffer) => Parsed): Promise<readonly ListedEntry[]> {
  const r = await git.run(args, LISTING_MAX);
  if (r.stopped) throw unreadable(`git ${args[0] ?? ''} lists more than ${LISTING_MAX} bytes`);
  if (r.code !== 0) throw unreadable(`git ${args[0] ?? ''} failed: ${firstLine(r)}`);
  const parsed = parse(r.stdout);
  if ('reason' in parsed) throw unreadable(parsed.reason);
  return parsed.entries;
}

/** The size of every blob of `entries`, from one `git cat-file --batch-check`. */
async function sizes(git: Git, entries: readonly ListedEntry[]): Promise<Map<string, number>> {
  const oids = [...new Set(entries.filter((e) => e.kind !== 'submodule').map((e) => e.oid))];
  const out = new Map<string, number>();
  if (oids.length === 0) return out;
  const r = await git.run(['cat-file', '--batch-check'], LISTING_MAX, oids.map((o) => `${o}\n`).join(''));
  if (r.code !== 0 || r.stopped) throw unreadable(`git cat-file failed: ${firstLine(r)}`);
  for (const line of r.stdout.toString('latin1').split('\n')) {
    if (line === '') continue;
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(line);
    if (m === null) throw unreadable(`an object the index names cannot be read: ${line}`, 'a partial clone may lack it: fetch it, then verify again');
    out.set(m[1] as string, Number(m[2]));
  }
  return out;
}

async function commitTree(git: Git, rev: string, label: string): Promise<GitTree> {
  const entries = await listing(git, ['ls-tree', '-r', '-z', '-l', '--full-tree', rev], parseLsTree);
  const tree = toGitTree(label, entries);
  if ('reason' in tree) throw unreadable(tree.reason);
  return tree;
}

/** `rev` as a commit id, or undefined when it names none (`optional`: an unborn HEAD is not an error). */
async function commitOf(git: Git, rev: string, optional: boolean): Promise<string | undefined> {
  await refuseAmbiguousRev(git, rev);
  const r = await git.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], 4096);
  const [id] = r.code === 0 ? (lines(r.stdout, 1) ?? []) : [];
  if (id !== undefined && /^[0-9a-f]{40,64}$/.test(id)) return id;
  if (optional) return undefined;
  throw unreadable(`${rev} does not name a commit in this repository`, 'give a branch, a tag or a commit id, e.g. --rev HEAD');
}

/** Reads the index or the commit `choice` names, and HEAD or the first parent to compare it with. */
export async function openTree(cwd: string, env: Readonly<Record<string, string | undefined>>, choice: TreeChoice): Promise<OpenedTree> {
  const git = await openGit(cwd, env);
  const staged = 'staged' in choice;
  const { top, prefix } = await place(git, staged);
  let tree: GitTree;
  let baseRev: string;
  if (staged) {
    // `:/` is the top of the work tree, wherever in it verify-pins was started.
    const entries = await listing(git, ['ls-files', '-s', '-z', '--debug', '--full-name', '--', ':/'], parseLsFiles);
    const t = toGitTree('index', entries, await sizes(git, entries));
    if ('reason' in t) throw unreadable(t.reason);
    tree = t;
    baseRev = 'HEAD';
  } else {
    const id = (await commitOf(git, choice.rev, false)) as string;
    tree = await commitTree(git, id, id);
    baseRev = `${id}^1`;
  }
  const loadBase = async (): Promise<GitTree | undefined> => {
    const id = await commitOf(git, baseRev, true);
    return id === undefined ? undefined : commitTree(git, id, id);
  };
  const blobs: BatchReader = catFile(git);
  return {
    tree,
    loadBase,
    baseLabel: staged ? 'HEAD' : 'its first parent',
    top,
    prefix,
    ops: treeDirOps(tree, top, blobs, { maxRead: MAX_READ }),
    label: tree.label,
    attributes: (paths, names) => checkAttributes(git, tree, paths, names),
    close: () => blobs.close(),
  };
}

/**
 * The project root in the tree, as `findProjectRoot` finds it on disk: the nearest ancestor of the
 * working directory's place holding pins/skills.lock.json, else the top.
 */
export async function projectRootIn(opened: OpenedTree): Promise<string> {
  const parts = opened.prefix.split('/').filter((p) => p !== '');
  for (let n = parts.length; n >= 0; n--) {
    const dir = join(opened.top, ...parts.slice(0, n));
    try {
      if ((await opened.ops.stat(join(dir, ...LOCK_MARKER.split('/')))).isFile()) return dir;
    } catch {
      // Not here: look further up.
    }
  }
  return opened.top;
}

/** `path` (absolute, under the top) as a path of the tree, or undefined when it lies outside. */
export function treePath(opened: OpenedTree, path: string): string | undefined {
  const rel = posix.relative(opened.top, path);
  return rel.startsWith('..') || posix.isAbsolute(rel) ? undefined : rel;
}
