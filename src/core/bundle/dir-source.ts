import type { Dirent } from 'node:fs';
import type { Ignore } from 'ignore';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, sha256, type FileMode, type Sha256Digest } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { asyncDirOps, type DirHandle, type DirOps } from './dir-ops.js';
import { atBelow, childPath as child, isLinkErrno, symlinkFound as linkFound } from './dir-below.js';
import { UNPORTABLE_NAME } from '../archive/index.js';
import { isExcluded, parseSkillignore } from './path-filter.js';
import {
  DEFAULT_BOUNDS,
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

/** Files up to this size are kept in memory once hashed (manifests, signatures.json). */
const KEEP_BYTES = 64 * 1024;

/**
 * A bundle read from a directory on disk. Nothing outside `root` is ever opened. `ops` chooses
 * how the file system is called (default: the thread pool; see dir-ops.ts).
 */
export function dirSource(root: string, bounds: BundleBounds = DEFAULT_BOUNDS, ops: DirOps = asyncDirOps): BundleSource {
  const sizes = new Map<string, number>();
  const small = new Map<string, Buffer>();
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
          // O_NOFOLLOW met a link, swapped in since the parent was listed.
          diagnostics.push(parent !== undefined && isLinkErrno(code) ? linkFound(dir) : diag('BUNDLE_UNREADABLE', `cannot read directory: ${code ?? String(err)}`, { file: dir || '.' }));
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
    const handle = ops.openDir === undefined ? undefined : await ops.openDir(path, isRoot);
    return handle === undefined ? { path, users: 1 } : { path: handle.path, handle, users: 1 };
  };
  const statOf = async (at: string): Promise<{ size: number; mode: FileMode }> => {
    const st = await ops.lstat(at);
    return { size: st.size, mode: modeOf(st.mode) };
  };
  const hashRegular = ops.hashRegular;
  return {
    location: root,
    list(): Promise<BundleListing> {
      return walk((_rel, at) => statOf(at));
    },
    // Each file opened once: size, mode and digest come from the same open file, and no
    // separate stat is paid per file (verify-pins lists and hashes thousands of bundles).
    ...(hashRegular !== undefined && {
      async listHashed(): Promise<ListedAndHashed> {
        const digests = new Map<string, Sha256Digest>();
        const unread: Diagnostic[] = [];
        const listing = await walk(async (rel, at, left) => {
          let got;
          try {
            got = await hashRegular(at, left, KEEP_BYTES);
          } catch (err) {
            // As a listing, then a read, reports it: listed and unread if it can be stat'd; if it
            // cannot (gone meanwhile), the listing's one finding says so, as a listing would.
            const st = await statOf(at);
            unread.push(diag('BUNDLE_UNREADABLE', `cannot read file: ${errnoCode(err) ?? String(err)}`, { file: rel }));
            return st;
          }
          if (got.digest !== undefined) digests.set(rel, got.digest);
          // Kept so that a later read gets the very bytes that were hashed (see `digest`).
          if (got.bytes !== undefined) small.set(rel, got.bytes);
          return got;
        });
        // A file over the budget was not read: the listing reports BUNDLE_TOO_LARGE for it.
        const files = listing.files.flatMap((f) => {
          const digest = digests.get(f.path);
          return digest === undefined ? [] : [{ ...f, digest }];
        });
        return { listing, hashed: { files, diagnostics: unread } };
      },
    }),
    // Reads after the listing reach a file through its directories' handles (dir-below.ts): a
    // directory swapped for a link since it was listed is refused (LinkOnTheWay), not followed.
    read(path: string): Promise<Buffer> {
      const kept = small.get(path);
      return kept !== undefined ? Promise.resolve(Buffer.from(kept)) : atBelow(ops, root, path, (at) => ops.readRegular(at));
    },
    async digest(path: string): Promise<Sha256Digest> {
      if ((sizes.get(path) ?? Infinity) > KEEP_BYTES) return atBelow(ops, root, path, (at) => ops.digestRegular(at));
      // Small files (the manifest, signatures.json) are kept once hashed: a later read gets the
      // very bytes that were hashed, and costs no second open.
      const bytes = await atBelow(ops, root, path, (at) => ops.readRegular(at));
      small.set(path, bytes);
      return sha256(bytes);
    },
  };
}
