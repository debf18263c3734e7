/**
 * What "the folder already holds this skill" means for pull: the folder holds exactly the files
 * the layer unpacks to (after `.skillignore` and the excluded folders, as pull places them), with
 * the same bytes and modes, and nothing else: no other file, no empty or extra directory, no link,
 * FIFO or device, but for a `signatures.json` at the top the layer does not hold (below). The
 * skill's digests are not enough: they leave out what `.skillignore` lists,
 * `node_modules/`, `.git/`, `.skillctl/`, `signatures.json` and the manifest's formatting, so a
 * skill that ran with write access could leave a `helper.sh` (and a `.skillignore` that lists
 * itself and it) in a pulled folder that a `pull --force` then called `unchanged` and kept.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateLimit, type ArchiveBounds } from '../archive/index.js';
import { archiveSourceFromBytes, asyncDirOps, type BundleSource } from '../bundle/index.js';
import { hasErrors } from '../diagnostics.js';
import { foldersOf, type FileMode, type Sha256Digest } from '../digest/index.js';
import type { Descriptor } from './artifact.js';
import type { BlobCache } from './cache.js';

/** Where `pin --sign` writes a skill's signatures. */
const SIGNATURES_FILE = 'signatures.json';

/** A file pull places: its path in the skill's folder, size, mode and digest. */
export interface PlacedFile {
  readonly path: string;
  readonly size: number;
  readonly mode: FileMode;
  readonly digest: Sha256Digest;
}

/**
 * A cached layer is read in memory to list it (a pull answered `unchanged` unpacks nothing) only
 * up to this size, inflated within these bounds; a larger one takes the streamed path, which
 * unpacks it into the scratch folder and compares that.
 */
const LISTED_LAYER_MAX_BYTES = 16 * 1024 * 1024;
const LISTED_LAYER_BOUNDS: ArchiveBounds = { maxFiles: 20_000, maxTotalBytes: 128 * 1024 * 1024 };

/** The files a pull places from `source` (an unpacked or in-memory layer, already filtered). */
export async function placedFiles(source: BundleSource): Promise<PlacedFile[]> {
  const { files } = await source.list();
  const placed: PlacedFile[] = [];
  for (const f of files) placed.push({ path: f.path, size: f.size, mode: f.mode, digest: await source.digest(f.path) });
  return placed;
}

/**
 * The files a pull would place from the cached layer `layer`, read once (hashed as read, never
 * through a link) and listed in memory by the guarded archive reader; nothing is written.
 * Undefined when the layer is not cached, no longer hashes to its digest (then it is removed, as
 * every use of the cache does), is over the bound above, or has any archive finding: the caller
 * then takes the path that unpacks it and reports what is wrong.
 */
export async function cachedLayerFiles(cache: BlobCache, layer: Descriptor, label: string): Promise<PlacedFile[] | undefined> {
  // Checked first: a read bounded below the file's size would take it for corrupt and remove it.
  if (layer.size > LISTED_LAYER_MAX_BYTES || layer.size > inflateLimit(LISTED_LAYER_BOUNDS)) return undefined;
  const read = await cache.verifiedBytes(layer.digest, LISTED_LAYER_MAX_BYTES, layer.size);
  if (read.state !== 'ok') return undefined;
  const source = await archiveSourceFromBytes(read.bytes, label, LISTED_LAYER_BOUNDS);
  if (hasErrors((await source.list()).diagnostics)) return undefined;
  return placedFiles(source);
}

/** The directories `files` need: every proper ancestor of each path, `a`, `a/b`, … */
function neededDirs(files: readonly PlacedFile[]): Set<string> {
  return foldersOf(files.map((f) => f.path));
}

/**
 * Whether the directory `dir` (itself a directory, not a link to one) holds exactly `files`: its
 * complete listing, nothing filtered out, is those files and the directories they need; each is a
 * regular file (opened without following a link) of the same size, mode (`0755` or `0644`) and
 * sha256. False as soon as one entry differs, and on any error reading the folder.
 */
export async function holdsExactly(dir: string, files: readonly PlacedFile[]): Promise<boolean> {
  const wanted = new Map(files.map((f) => [f.path, f]));
  const dirs = neededDirs(files);
  try {
    if (!(await lstat(dir)).isDirectory()) return false;
    let found = 0;
    const pending = [''];
    for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
      const entries = await readdir(rel === '' ? dir : join(dir, ...rel.split('/')), { withFileTypes: true });
      for (const e of entries) {
        const path = rel === '' ? e.name : `${rel}/${e.name}`;
        // The entry's type from the listing (lstat's): a link is neither a directory nor a file here.
        if (e.isDirectory()) {
          if (!dirs.has(path)) return false;
          pending.push(path);
          continue;
        }
        const want = wanted.get(path);
        // The signatures `pin --sign` adds beside a pulled skill: a file the layer cannot hold
        // the user's, and nothing trusts it unverified (each signature is checked against the
        // lock's keys), so its presence is no other content.
        if (want === undefined && path === SIGNATURES_FILE && e.isFile()) continue;
        if (!e.isFile() || want === undefined) return false;
        const got = await asyncDirOps.hashRegular?.(join(dir, ...path.split('/')), want.size, 0);
        if (got === undefined || got.size !== want.size || got.mode !== want.mode || got.digest !== want.digest) return false;
        found++;
      }
    }
    return found === wanted.size;
  } catch {
    // Unreadable, or changed while it was read: not known to hold the skill.
    return false;
  }
}
