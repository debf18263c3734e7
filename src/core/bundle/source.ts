import type { Diagnostic } from '../diagnostics.js';
import type { FileMode, Sha256Digest, TreeFile } from '../digest/index.js';

/** A regular file of a bundle. */
export interface BundleFile {
  /** POSIX path relative to the bundle root. */
  readonly path: string;
  readonly size: number;
  readonly mode: FileMode;
}

export interface BundleListing {
  /** Every included file, in UTF-8 byte order of path. */
  readonly files: readonly BundleFile[];
  /** Symlinks, special files, unreadable entries, bounds exceeded. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Where a bundle's files come from: a directory on disk or an unpacked archive. Rules and
 * digests read through this interface, so they work the same on both.
 */
export interface BundleSource {
  /** Shown in messages: the directory or archive path. */
  readonly location: string;
  list(): Promise<BundleListing>;
  /**
   * The listing and every listed file's digest in one pass, where a source can do that for less
   * than a listing and a read of each file (bundle/content.ts `listAndHash` does it either way).
   */
  listHashed?(): Promise<ListedAndHashed>;
  read(path: string): Promise<Buffer>;
  digest(path: string): Promise<Sha256Digest>;
}

export interface ListedAndHashed {
  readonly listing: BundleListing;
  /** The listed files that could be read, with their digests, in listing order. */
  readonly hashed: { readonly files: readonly TreeFile[]; readonly diagnostics: readonly Diagnostic[] };
}

/** Names of the manifest file, in the order they are looked for. */
export const MANIFEST_NAMES = ['skill.yaml', 'skill.json'] as const;
export type ManifestName = (typeof MANIFEST_NAMES)[number];

/** Root files that are never part of `content_digest` (the digest cannot cover itself). */
export const DIGEST_EXCLUDED_ROOT_FILES: ReadonlySet<string> = new Set([...MANIFEST_NAMES, 'signatures.json']);

/** Directory names excluded at any depth: VCS data, installed dependencies, skillctl state. */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.skillctl']);

/**
 * Folders package managers and build tools fill with thousands of directories, none a place a
 * person keeps skills or runs git in: walks over a whole project (run/nested-names.ts,
 * pins/nested-roots.ts) do not enter them, nor EXCLUDED_DIRS.
 */
export const TOOL_FILLED_DIRS: readonly string[] = ['.venv', '__pycache__', '.tox', '.nox', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.gradle', 'target', '.next'];

/**
 * Names excluded at any depth whatever they are. A `.git` file is the link a git worktree or
 * submodule keeps to its repository, often an absolute path on the machine that made it: VCS
 * data like a `.git` directory, which would make a digest depend on where the folder was
 * checked out, and would tell anyone the folder is served or packed to where that is.
 */
export const EXCLUDED_NAMES: ReadonlySet<string> = new Set(['.git']);

export interface BundleBounds {
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

export const DEFAULT_BOUNDS: BundleBounds = { maxFiles: 20_000, maxTotalBytes: 2 * 1024 ** 3 };
