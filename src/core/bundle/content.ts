import { diag, type Diagnostic } from '../diagnostics.js';
import { treeDigest, type Sha256Digest, type TreeFile } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { mapLimited } from '../map-limited.js';
import { LinkOnTheWay, RootChanged, rootChangedFound, symlinkFound } from './dir-below.js';
import { DIGEST_EXCLUDED_ROOT_FILES, type BundleFile, type BundleListing, type BundleSource, type ListedAndHashed } from './source.js';

export interface BundleContent {
  /** The files `content_digest` covers, with their digests, in UTF-8 path order. */
  readonly files: readonly TreeFile[];
  readonly digest: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
  /** False when a file could not be listed or read: the digest is then not trustworthy. */
  readonly complete: boolean;
}

export interface HashedFiles {
  /** The listed files that could be read, with their digests, in listing order. */
  readonly files: readonly TreeFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Bounded parallelism: enough to keep the disk and the thread pool busy, not unbounded fds. */
const CONCURRENCY = 8;

/** Hashes the given files of a source, `CONCURRENCY` at a time. */
export async function hashFiles(source: BundleSource, wanted: readonly BundleFile[]): Promise<HashedFiles> {
  const diagnostics: Diagnostic[] = [];
  const links = new Set<string>();
  let rootGone = false;
  const files = await mapLimited(wanted, CONCURRENCY, async (f): Promise<TreeFile | undefined> => {
    try {
      return { path: f.path, size: f.size, mode: f.mode, digest: await source.digest(f.path) };
    } catch (err) {
      // The bundle's folder replaced since its walk: once, and nothing of the new one was read.
      if (err instanceof RootChanged) {
        if (!rootGone) diagnostics.push(rootChangedFound());
        rootGone = true;
        return undefined;
      }
      // A directory of the file swapped for a link since the listing: the link is the finding (pin, validate).
      // Once for the link, however many files lie below it.
      if (err instanceof LinkOnTheWay) {
        if (!links.has(err.dir)) diagnostics.push(symlinkFound(err.dir));
        links.add(err.dir);
      } else diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read file: ${errnoCode(err) ?? String(err)}`, { file: f.path }));
      return undefined;
    }
  });
  return { files: files.filter((f): f is TreeFile => f !== undefined), diagnostics };
}

/** A source's listing and its files' digests: in one pass where the source has one (a directory), else listed, then hashed. */
export async function listAndHash(source: BundleSource): Promise<ListedAndHashed> {
  if (source.listHashed !== undefined) return source.listHashed();
  const listing = await source.list();
  return { listing, hashed: await hashFiles(source, listing.files) };
}

/**
 * Lists and hashes a bundle: the `content_digest` recipe of docs/formats/digests.md. Pass the
 * listing when the caller already has one, so the tree is walked once.
 */
export async function computeContent(source: BundleSource, known?: BundleListing): Promise<BundleContent> {
  const listing = known ?? (await source.list());
  const hashed = await hashFiles(
    source,
    listing.files.filter((f) => !DIGEST_EXCLUDED_ROOT_FILES.has(f.path)),
  );
  const diagnostics = [...listing.diagnostics, ...hashed.diagnostics];
  return {
    files: hashed.files,
    digest: treeDigest(hashed.files),
    diagnostics,
    complete: diagnostics.every((d) => d.severity !== 'error'),
  };
}
