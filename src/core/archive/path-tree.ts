/**
 * The files an archive holds and the folders their paths imply, kept by segment: a node per
 * folder or file, reached by walking a path's names, so placing a path costs its length. Kept as
 * every folder's full path (`a`, `a/a`, `a/a/a`, …), a path n folders deep cost n times its
 * length: a 500-byte .tgz of three pax paths 200,000 folders deep held 4 GB and ended the
 * process before anything refused it. The folders are bounded like the entries: each is a node
 * here, and a map key or a string in every check that later lists them.
 */

interface Node {
  /** A file ends here. */
  readonly file: boolean;
  /** For a folder: the first file placed below it (the one that made it), which a later file of its path collides with. */
  readonly first?: string;
  children?: Map<string, Node>;
}

/** Where a path landed: placed, or why not. */
export type Placing =
  | { readonly kind: 'placed' }
  /** The path is already a file's. */
  | { readonly kind: 'duplicate' }
  /** The path is a folder of an earlier file, `first`. */
  | { readonly kind: 'folder'; readonly first: string }
  /** A folder of the path, `folder`, is an earlier file. */
  | { readonly kind: 'below-file'; readonly folder: string }
  /** Placing it would make more than `maxFolders` folders. */
  | { readonly kind: 'too-many-folders' };

export class PathTree {
  private readonly root: Node = { file: false };
  private count = 0;

  constructor(private readonly maxFolders: number) {}

  /** How many folders the placed files imply. */
  get folders(): number {
    return this.count;
  }

  /** True when `path` is a file placed. */
  hasFile(path: string): boolean {
    let node: Node | undefined = this.root;
    for (const name of path.split('/')) node = node?.children?.get(name);
    return node?.file === true;
  }

  /** Places the file `path` (a clean relative path) unless it collides with one placed or would pass the folder bound. */
  place(path: string): Placing {
    const names = path.split('/');
    const last = names.length - 1;
    // The folders that exist are walked first, and nothing is added before the path is known to fit.
    let node: Node = this.root;
    let depth = 0;
    let end = -1;
    for (; depth < last; depth++) {
      const name = names[depth] as string;
      const next = node.children?.get(name);
      if (next === undefined) break;
      end += name.length + 1;
      if (next.file) return { kind: 'below-file', folder: path.slice(0, end) };
      node = next;
    }
    if (depth === last) {
      const here = node.children?.get(names[last] as string);
      if (here?.file === true) return { kind: 'duplicate' };
      if (here?.first !== undefined) return { kind: 'folder', first: here.first };
    } else if (this.count + last - depth > this.maxFolders) {
      return { kind: 'too-many-folders' };
    }
    // The folders walked name their first file already; from `depth` down each is new, with this one.
    this.count += last - depth;
    for (; depth <= last; depth++) {
      const next: Node = depth < last ? { file: false, first: path } : { file: true };
      (node.children ??= new Map()).set(names[depth] as string, next);
      node = next;
    }
    return { kind: 'placed' };
  }
}
