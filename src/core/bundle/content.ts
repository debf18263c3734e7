import { diag, type Diagnostic } from '../diagnostics.js';
import { treeDigest, type Sha256Digest, type TreeFile } from '../digest/index.js';
import { errnoCode } from '../errors.js';
import { DIGEST_EXCLUDED_ROOT_FILES, type BundleListing, type BundleSource } from './source.js';

export interface BundleContent {
  /** The files `content_digest` covers, with their digests, in UTF-8 path order. */
  readonly files: readonly TreeFile[];
  readonly digest: Sha256Digest;
  readonly diagnostics: readonly Diagnostic[];
  /** False when a file could not be listed or read: the digest is then not trustworthy. */
  readonly complete: boolean;
}

/** Bounded parallelism: enough to keep the disk and the thread pool busy, not unbounded fds. */
const CONCURRENCY = 8;

/**
 * Lists and hashes a bundle: the `content_digest` recipe of docs/formats/digests.md. Pass the
 * listing when the caller already has one, so the tree is walked once.
 */
export async function computeContent(source: BundleSource, known?: BundleListing): Promise<BundleContent> {
  const listing = known ?? (await source.list());
  const diagnostics: Diagnostic[] = [...listing.diagnostics];
  const wanted = listing.files.filter((f) => !DIGEST_EXCLUDED_ROOT_FILES.has(f.path));
  const files: (TreeFile | undefined)[] = new Array(wanted.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < wanted.length) {
      const i = next++;
      const f = wanted[i] as (typeof wanted)[number];
      try {
        files[i] = { path: f.path, size: f.size, mode: f.mode, digest: await source.digest(f.path) };
      } catch (err) {
        diagnostics.push(diag('BUNDLE_UNREADABLE', `cannot read file: ${errnoCode(err) ?? String(err)}`, { file: f.path }));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, wanted.length) }, worker));
  const present = files.filter((f): f is TreeFile => f !== undefined);
  return {
    files: present,
    digest: treeDigest(present),
    diagnostics,
    complete: diagnostics.every((d) => d.severity !== 'error'),
  };
}
