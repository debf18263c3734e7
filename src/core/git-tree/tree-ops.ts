/**
 * The file-system calls of a `DirOps` answered from a git tree in memory, so that everything
 * `verify-pins` checks on a directory (listings, digests, signatures, archives, packs, provenact
 * bundles, unpinned folders) is checked the same way on the index or on a commit, without the
 * working tree being read at all.
 *
 * Paths are absolute, under `root` (the top of the work tree, as a name only: nothing is read
 * there). A path outside `root` does not exist. Symbolic links (mode 120000) are resolved inside
 * the tree as the kernel resolves them on disk, so a link is refused wherever the directory
 * verifier refuses one (a listing reports it, `readRegular` will not open it) and a source
 * reached through a link that leaves the tree resolves outside `root`, which `resolveSource`
 * refuses. A submodule (160000) has no content in this repository: it is listed as a link, and so
 * refused the same way.
 */
import type { Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { DirOps } from '../bundle/index.js';
import type { Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import type { BoundedRead } from '../fs/index.js';
import type { BlobReader, GitTree, TreeEntry } from './model.js';

interface DirNode {
  readonly kind: 'dir';
  readonly children: Map<string, Node>;
}
type Node = DirNode | { readonly kind: 'entry'; readonly entry: TreeEntry };

/** Links followed in one resolution before giving up, as Linux does (ELOOP). */
const MAX_HOPS = 40;
/** A link's target is a path: PATH_MAX. */
const LINK_MAX = 4096;

export interface TreeOpsOptions {
  /**
   * Whole reads (`readBounded`, `readRegular`, `readText`) of a blob larger than this are refused
   * (EFBIG): a huge blob must not exhaust memory. Digests are streamed and have no bound.
   */
  readonly maxRead: number;
}

function fsError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

function build(tree: GitTree): DirNode {
  const top: DirNode = { kind: 'dir', children: new Map() };
  for (const entry of tree.entries.values()) {
    const parts = entry.path.split('/');
    let dir = top;
    for (const name of parts.slice(0, -1)) {
      let next = dir.children.get(name);
      if (next === undefined) dir.children.set(name, (next = { kind: 'dir', children: new Map() }));
      // toGitTree refused a path that is both a file and a directory.
      if (next.kind !== 'dir') throw fsError('ENOTDIR', entry.path);
      dir = next;
    }
    dir.children.set(parts[parts.length - 1] as string, { kind: 'entry', entry });
  }
  return top;
}

class TreeDirent implements Dirent {
  readonly path: string;
  constructor(
    readonly name: string,
    readonly parentPath: string,
    private readonly node: Node,
  ) {
    this.path = parentPath;
  }
  isFile(): boolean {
    return this.node.kind === 'entry' && (this.node.entry.kind === 'file' || this.node.entry.kind === 'executable');
  }
  isDirectory(): boolean {
    return this.node.kind === 'dir';
  }
  isSymbolicLink(): boolean {
    return this.node.kind === 'entry' && (this.node.entry.kind === 'link' || this.node.entry.kind === 'submodule');
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

type Resolved = { readonly node: Node; readonly parts: readonly string[] } | { readonly outside: string };

const isBlob = (e: TreeEntry): boolean => e.kind === 'file' || e.kind === 'executable';
const modeOf = (e: TreeEntry): number => (e.kind === 'executable' ? 0o100755 : e.kind === 'file' ? 0o100644 : 0o120777);

/** A `DirOps` over `tree`, whose top is named `root`, reading blobs through `blobs`. */
export function treeDirOps(tree: GitTree, root: string, blobs: BlobReader, opts: TreeOpsOptions): DirOps {
  const top = build(tree);
  const abs = (parts: readonly string[]): string => (parts.length === 0 ? root : join(root, ...parts));

  const dirAt = (parts: readonly string[]): DirNode => {
    let node: DirNode = top;
    for (const p of parts) node = node.children.get(p) as DirNode;
    return node;
  };

  const bounded = async (e: TreeEntry, path: string): Promise<Buffer> => {
    if (e.size > opts.maxRead) throw fsError('EFBIG', path);
    return blobs.read(e.oid, e.size);
  };

  /** Resolves `path` as the kernel would; `followLast` as stat (true) or lstat (false). */
  const resolve = async (path: string, followLast: boolean): Promise<Resolved> => {
    const rel = relative(root, path);
    if (rel.startsWith('..') || isAbsolute(rel)) return { outside: path };
    let remaining = rel === '' ? [] : rel.split(sep);
    let done: string[] = [];
    let node: Node = top;
    let hops = 0;
    while (remaining.length > 0) {
      const name = remaining.shift() as string;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (done.length === 0) return { outside: join(dirname(root), ...remaining) };
        done = done.slice(0, -1);
        node = dirAt(done);
        continue;
      }
      if (node.kind !== 'dir') throw fsError('ENOTDIR', path);
      const child = node.children.get(name);
      if (child === undefined) throw fsError('ENOENT', path);
      if (child.kind === 'entry' && child.entry.kind === 'link' && (remaining.length > 0 || followLast)) {
        if (++hops > MAX_HOPS) throw fsError('ELOOP', path);
        if (child.entry.size > LINK_MAX) throw fsError('ENAMETOOLONG', path);
        const target = (await blobs.read(child.entry.oid, child.entry.size)).toString('utf8');
        if (target.startsWith('/')) {
          const inside = relative(root, target);
          if (inside.startsWith('..') || isAbsolute(inside)) return { outside: join(target, ...remaining) };
          done = [];
          node = top;
          remaining = [...(inside === '' ? [] : inside.split(sep)), ...remaining];
        } else {
          remaining = [...target.split('/'), ...remaining];
        }
        continue;
      }
      // A submodule's files are in another repository: nothing under it can be read here.
      if (child.kind === 'entry' && child.entry.kind === 'submodule' && remaining.length > 0) throw fsError('ENOENT', path);
      done = [...done, name];
      node = child;
    }
    return { node, parts: done };
  };

  const found = async (path: string, followLast: boolean): Promise<{ node: Node; parts: readonly string[] }> => {
    const r = await resolve(path, followLast);
    if ('outside' in r) throw fsError('ENOENT', path);
    return r;
  };

  /** The blob at `path` for a whole read or a digest; `follow`: whether a link in the last component is followed. */
  const blobAt = async (path: string, follow: boolean): Promise<TreeEntry> => {
    const { node } = await found(path, follow);
    if (node.kind === 'dir') throw fsError(follow ? 'EISDIR' : 'EINVAL', path);
    // O_NOFOLLOW on a link fails with ELOOP; a submodule is not a regular file.
    if (node.entry.kind === 'link') throw fsError('ELOOP', path);
    if (!isBlob(node.entry)) throw fsError('EINVAL', path);
    return node.entry;
  };

  return {
    blocking: false,
    async readdir(path) {
      const { node } = await found(path, true);
      if (node.kind !== 'dir') throw fsError('ENOTDIR', path);
      return [...node.children].map(([name, child]) => new TreeDirent(name, path, child));
    },
    async lstat(path) {
      const { node } = await found(path, false);
      return node.kind === 'dir' ? { size: 0, mode: 0o40755 } : { size: node.entry.size, mode: modeOf(node.entry) };
    },
    async stat(path) {
      const { node } = await found(path, true);
      const dir = node.kind === 'dir';
      const file = node.kind === 'entry' && isBlob(node.entry);
      return { isDirectory: () => dir, isFile: () => file, size: node.kind === 'entry' ? node.entry.size : 0 };
    },
    async realpath(path) {
      const r = await resolve(path, true);
      return 'outside' in r ? r.outside : abs(r.parts);
    },
    async readText(path) {
      const e = await blobAt(path, true);
      return (await bounded(e, path)).toString('utf8');
    },
    async readBounded(path, { maxBytes, followLinks = true }): Promise<BoundedRead> {
      let node: Node;
      try {
        ({ node } = await found(path, followLinks));
      } catch (err) {
        const errno = errnoCode(err) ?? String(err);
        return errno === 'ENOENT' || errno === 'ENOTDIR' ? { ok: false, reason: 'missing', errno } : { ok: false, reason: 'unreadable', errno };
      }
      if (node.kind === 'dir') return { ok: false, reason: 'not-regular', kind: 'directory' };
      if (!isBlob(node.entry)) return { ok: false, reason: 'not-regular', kind: 'symbolic link' };
      // The tree's own bound holds too: it keeps a huge blob out of memory.
      const max = Math.min(maxBytes, opts.maxRead);
      if (node.entry.size > max) return { ok: false, reason: 'too-large', size: node.entry.size, maxBytes: max };
      return { ok: true, bytes: await blobs.read(node.entry.oid, node.entry.size), mode: modeOf(node.entry), mtimeMs: 0 };
    },
    async readRegular(path) {
      return bounded(await blobAt(path, false), path);
    },
    async digestRegular(path): Promise<Sha256Digest> {
      const e = await blobAt(path, false);
      return blobs.digest(e.oid, e.size);
    },
  };
}
