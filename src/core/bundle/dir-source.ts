import type { Dirent } from 'node:fs';
import type { Ignore } from 'ignore';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, sha256, type FileMode, type Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { asyncDirOps, type DirHandle, type DirOps } from './dir-ops.js';
import { atBelow, childPath as child, isLinkErrno, RootChanged, rootChangedFound, sameRoot, symlinkFound as linkFound, type RootIdentity } from './dir-below.js';
import { MAX_PATH_BYTES, UNPORTABLE_NAME } from '../archive/index.js';
import { pushAll } from '../findings.js';
import { pathCollisions } from './fold-name.js';
import { isExcluded, parseSkillignore } from './path-filter.js';
import {
  DEFAULT_BOUNDS,
  DIGEST_EXCLUDED_ROOT_FILES,
  type BundleBounds,
  type BundleFile,
  type BundleListing,
  type BundleSource,
  type ListedAndHashed,
} from './source.js';

/** A directory of a walk: open (when the flavour opens directories) while it or a subdirectory not yet opened needs it. */
interface OpenDir {
  /** Where its entries are reached. */
  readonly path: string;
  readonly handle?: DirHandle;
  /** Its own listing, plus each subdirectory pushed and not yet opened through it. */
  users: number;
}

/** Files up to this size are kept in memory once hashed. */
const KEEP_BYTES = 64 * 1024;

/**
 * Root files that validation or pin reads after the walk (the manifest, SKILL.md,
 * signatures.json): kept whole up to the manifest bound (4 MiB), so that what is checked is the
 * very bytes that were hashed, read once.
 */
const READ_AFTER: ReadonlySet<string> = new Set([...DIGEST_EXCLUDED_ROOT_FILES, 'SKILL.md', 'skill.md']);
const READ_AFTER_KEEP_BYTES = 4 * 1024 * 1024;

export interface DirSourceOptions {
  /**
   * Whether the root is opened following a link (default true: a path as the user gave it, or a
   * handle's /proc path). False for a path already resolved (realpath): a link found there now
   * was swapped in since, and is refused (`BUNDLE_ROOT_CHANGED`).
   */
  readonly followRoot?: boolean;
}

/** How a validation opens a bundle directory: through `source` when the caller holds one (a pin hashes through it afterwards), else a new one opened as `DirSourceOptions` say. */
export interface BundleDirOptions extends DirSourceOptions {
  readonly source?: BundleSource;
}

/** The directory source `opts` names for `dir` (thread-pool calls, default bounds). */
export function bundleDirSource(dir: string, opts: BundleDirOptions = {}): BundleSource {
  return opts.source ?? dirSource(dir, DEFAULT_BOUNDS, asyncDirOps, opts);
}

/** A file read after the walk that no longer has the bytes the walk hashed. */
function changedSinceHashed(path: string): Error {
  return Object.assign(new Error(`${path} changed since it was hashed`), { code: 'ESTALE' });
}

/**
 * A bundle read from a directory on disk. Nothing outside `root` is ever opened. `ops` chooses
 * how the file system is called (default: the thread pool; see dir-ops.ts).
 *
 * The root is opened once per walk and its identity (device, inode) kept: every read after the
 * walk reaches the root again only if it is still that directory (dir-below.ts `RootChanged`).
 * Walked with `listHashed` (bundle/content.ts `listAndHash`), the source is a snapshot: each file
 * was read once, its digest is what `digest` answers, and `read` gives the bytes that were
 * hashed, so a validation and the digests a pin records describe the same bytes.
 */
export function dirSource(root: string, bounds: BundleBounds = DEFAULT_BOUNDS, ops: DirOps = asyncDirOps, opts: DirSourceOptions = {}): BundleSource {
  const followRoot = opts.followRoot ?? true;
  const sizes = new Map<string, number>();
  const small = new Map<string, Buffer>();
  const digests = new Map<string, Sha256Digest>();
  let rootId: RootIdentity | undefined;
  let hashedWalk: Promise<ListedAndHashed> | undefined;
  /**
   * Walks the tree once. `visit` gives a regular file's size and mode (or throws its errno), `at`
   * being where to open it; `left` is the byte budget left for it, so a visit that reads can
   * refuse what is over.
   */
  const walk = async (visit: (rel: string, at: string, left: number) => Promise<{ size: number; mode: FileMode }>): Promise<BundleListing> => {
    const files: BundleFile[] = [];
    const diagnostics: Diagnostic[] = [];
    let total = 0;
    let over = false;
    let ig: Ignore | undefined;
    const open = new Set<OpenDir>();
    const release = async (d: OpenDir): Promise<void> => {
      if (--d.users > 0 || d.handle === undefined) return;
      open.delete(d);
      await d.handle.close();
    };
    // Iterative walk: depth cannot exhaust the stack, and symlinks are never followed, so a
    // link loop is reported once and never entered. A subdirectory is opened through its
    // parent's handle (dir-ops.ts `openDir`): one swapped for a link after the parent was listed
    // is a link found, never a way out of the bundle.
    const stack: { rel: string; parent?: OpenDir; name: string }[] = [{ rel: '', name: '' }];
    try {
      while (stack.length > 0 && !over) {
        const { rel: dir, parent, name } = stack.pop() as (typeof stack)[number];
        let here: OpenDir;
        try {
          here = await openWalked(parent === undefined ? root : child(parent.path, name), parent === undefined);
          if (here.handle !== undefined) open.add(here);
        } catch (err) {
          const code = errnoCode(err);
          // O_NOFOLLOW met a link, swapped in since the parent was listed (or, for a root not
          // followed, since its path was resolved); a root walked before must be that directory.
          if (parent === undefined && (code === 'BUNDLE_ROOT_CHANGED' || isLinkErrno(code))) diagnostics.push(rootChangedFound());
          else diagnostics.push(parent !== undefined && isLinkErrno(code) ? linkFound(dir) : diag('BUNDLE_UNREADABLE', `cannot read directory: ${code ?? String(err)}`, { file: dir || '.' }));
          continue;
        } finally {
          if (parent !== undefined) await release(parent);
        }
        let entries: Dirent[];
        try {
          entries = await ops.readdir(here.path);
        } catch (err) {
          diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read directory: ${errnoCode(err) ?? String(err)}`, { file: dir || '.' }));
          await release(here);
          continue;
        }
        // Every name counts, excluded ones too: a checkout that folds them keeps one file either way.
        pushAll(diagnostics, pathCollisions(entries.map((e) => e.name), dir));
        if (dir === '' && entries.some((e) => e.name === '.skillignore' && e.isFile())) {
          try {
            ig = await parseSkillignore(await ops.readText(child(here.path, '.skillignore')));
          } catch (err) {
            diagnostics.push(diag('BUNDLE_UNREADABLE', `.skillignore could not be read: ${errnoCode(err) ?? String(err)}`, { file: '.skillignore' }));
          }
        }
        for (const ent of entries) {
          const rel = dir === '' ? ent.name : `${dir}/${ent.name}`;
          if (isExcluded(rel, ent.isDirectory(), ig)) continue;
          if (UNPORTABLE_NAME.test(ent.name)) {
            diagnostics.push(diag('BUNDLE_PATH_INVALID', `file name ${JSON.stringify(ent.name)} is not portable`, { file: rel }));
            continue;
          }
          // Refused as an archive refuses it, and not entered: each level below would cost its whole path again.
          if (Buffer.byteLength(rel) > MAX_PATH_BYTES) {
            diagnostics.push(diag('BUNDLE_PATH_INVALID', `the path is longer than ${MAX_PATH_BYTES} bytes`, { file: rel }));
            continue;
          }
          if (ent.isSymbolicLink()) {
            diagnostics.push(linkFound(rel));
            continue;
          }
          if (ent.isDirectory()) {
            here.users++;
            stack.push({ rel, parent: here, name: ent.name });
            continue;
          }
          if (!ent.isFile()) {
            diagnostics.push(diag('BUNDLE_SPECIAL_FILE', 'devices, FIFOs and sockets are not allowed in a bundle', { file: rel }));
            continue;
          }
          let st;
          try {
            st = await visit(rel, child(here.path, ent.name), bounds.maxTotalBytes - total);
          } catch (err) {
            diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot stat file: ${errnoCode(err) ?? String(err)}`, { file: rel }));
            continue;
          }
          total += st.size;
          files.push({ path: rel, size: st.size, mode: st.mode });
          if (files.length > bounds.maxFiles || total > bounds.maxTotalBytes) {
            diagnostics.push(
              diag(
                'BUNDLE_TOO_LARGE',
                `bundle exceeds ${bounds.maxFiles} files or ${bounds.maxTotalBytes} bytes; stopped reading`,
                { hint: 'exclude generated or vendored files with .skillignore' },
              ),
            );
            over = true;
            break;
          }
        }
        await release(here);
      }
    } finally {
      // A walk stopped at a bound leaves directories listed whose subdirectories were never opened.
      await Promise.all([...open].map((d) => d.handle?.close()));
    }
    files.sort((a, b) => comparePaths(a.path, b.path));
    for (const f of files) sizes.set(f.path, f.size);
    return { files, diagnostics };
  };
  const openWalked = async (path: string, isRoot: boolean): Promise<OpenDir> => {
    // The root is the caller's to check (verify-pins resolves it inside the project first).
    const handle = ops.openDir === undefined ? undefined : await ops.openDir(path, isRoot && followRoot);
    if (isRoot && handle?.stats !== undefined) {
      const { dev, ino } = handle.stats;
      // A second walk of one source (a listing, then a hashed walk) is of the directory the first one walked.
      if (rootId !== undefined && !sameRoot(handle.stats, rootId)) {
        await handle.close();
        throw new RootChanged(root);
      }
      rootId = { dev, ino };
    }
    return handle === undefined ? { path, users: 1 } : { path: handle.path, handle, users: 1 };
  };
  /** `use` at the listed file `path`, reached through the walked root (refused if it changed since). */
  const below = <T>(path: string, use: (at: string) => Promise<T>): Promise<T> => atBelow(ops, root, path, use, rootId);
  const statOf = async (at: string): Promise<{ size: number; mode: FileMode }> => {
    const st = await ops.lstat(at);
    return { size: st.size, mode: modeOf(st.mode) };
  };
  const hashedListing = async (hash: NonNullable<DirOps['hashRegular']>): Promise<ListedAndHashed> => {
    const unread: Diagnostic[] = [];
    const listing = await walk(async (rel, at, left) => {
      let got;
      try {
        got = await hash(at, left, READ_AFTER.has(rel) ? READ_AFTER_KEEP_BYTES : KEEP_BYTES);
      } catch (err) {
        // As a listing, then a read, reports it: listed and unread if it can be stat'd; if it
        // cannot (gone meanwhile), the listing's one finding says so, as a listing would.
        const st = await statOf(at);
        unread.push(diag('BUNDLE_UNREADABLE', `cannot read file: ${errnoCode(err) ?? String(err)}`, { file: rel }));
        return st;
      }
      if (got.digest !== undefined) digests.set(rel, got.digest);
      // Kept so that a later read gets the very bytes that were hashed (see `read`).
      if (got.bytes !== undefined) small.set(rel, got.bytes);
      return got;
    });
    // A file over the budget was not read: the listing reports BUNDLE_TOO_LARGE for it.
    const files = listing.files.flatMap((f) => {
      const digest = digests.get(f.path);
      return digest === undefined ? [] : [{ ...f, digest }];
    });
    return { listing, hashed: { files, diagnostics: unread } };
  };
  const hashRegular = ops.hashRegular;
  return {
    location: root,
    async list(): Promise<BundleListing> {
      // A snapshot lists what it hashed: a second walk could list files whose bytes it never read.
      if (hashedWalk !== undefined) return (await hashedWalk).listing;
      return walk((_rel, at) => statOf(at));
    },
    // Each file opened once: size, mode and digest come from the same open file, and no
    // separate stat is paid per file (verify-pins lists and hashes thousands of bundles). Once:
    // the source is then a snapshot of that walk.
    ...(hashRegular !== undefined && {
      listHashed(): Promise<ListedAndHashed> {
        hashedWalk ??= hashedListing(hashRegular);
        return hashedWalk;
      },
    }),
    // Reads after the listing reach a file through the walked root and its directories' handles
    // (dir-below.ts): a root that is another directory now (RootChanged), or a directory swapped
    // for a link since it was listed (LinkOnTheWay), is refused, not followed.
    async read(path: string): Promise<Buffer> {
      const kept = small.get(path);
      if (kept !== undefined) return Buffer.from(kept);
      const bytes = await below(path, (at) => ops.readRegular(at));
      // Hashed by the walk but too large to keep: read again only to give the bytes that were hashed.
      const hashed = digests.get(path);
      if (hashed !== undefined && sha256(bytes) !== hashed) throw changedSinceHashed(path);
      return bytes;
    },
    async digest(path: string): Promise<Sha256Digest> {
      const hashed = digests.get(path);
      if (hashed !== undefined) return hashed;
      if ((sizes.get(path) ?? Infinity) > KEEP_BYTES) return below(path, (at) => ops.digestRegular(at));
      // Small files (the manifest, signatures.json) are kept once hashed: a later read gets the
      // very bytes that were hashed, and costs no second open.
      const bytes = await below(path, (at) => ops.readRegular(at));
      const digest = sha256(bytes);
      small.set(path, bytes);
      digests.set(path, digest);
      return digest;
    },
  };
}
