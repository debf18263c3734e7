/**
 * A bundle read from a .tgz archive or a `.skill` file: the entries `readTgz` or `readSkillZip`
 * accepted (../archive/read-tgz.ts and read-zip.ts say what they refuse), filtered by the same rules as a directory (`.skillignore`, excluded folders),
 * so a bundle and its packed archive list the same files. Nothing is written anywhere unless
 * `extractTo` is called, and then only inside the target directory, into files it creates itself.
 */
import { pushAll } from '../findings.js';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { describeRefusal, readBounded, refusalCode } from '../fs/read-bounded.js';
import { join, resolve, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { decodeUtf8, DEFAULT_ARCHIVE_BOUNDS, type ArchiveFormat, inflateLimit, readSkillZip, readTgz, tooLarge, type ReadSkillZip, type TarEntry } from '../archive/index.js';
import { comparePaths, modeOf, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { hashStream } from './hash-stream.js';
import { pathCollisions } from './fold-name.js';
import { excludedWithAncestors, parseSkillignore } from './path-filter.js';
import type { BundleBounds, BundleFile, BundleListing, BundleSource } from './source.js';
import { makeDirs } from '../fs/make-dirs.js';

export interface ArchiveSource extends BundleSource {
  /** A `.skill` file's top-level folder (the skill's name); its files are listed relative to it. */
  readonly folder?: string;
  /** sha256 of the archive file's bytes. */
  readonly archiveDigest: Sha256Digest;
  readonly archiveSize: number;
  /**
   * Writes the listed files under `target`, which must not exist or be an empty directory.
   * Refuses (returns the findings, writes nothing) when the archive had any error.
   */
  extractTo(target: string): Promise<readonly Diagnostic[]>;
}

/** A bundle source over archive bytes already in memory; `location` names it in messages. */
export async function archiveSourceFromBytes(
  bytes: Buffer,
  location: string,
  bounds: BundleBounds = DEFAULT_ARCHIVE_BOUNDS,
  format: ArchiveFormat = 'tgz',
): Promise<ArchiveSource> {
  const read: ReadSkillZip = format === 'tgz' ? await readTgz(bytes, bounds) : readSkillZip(bytes, bounds);
  const { entries, diagnostics } = read;
  const ignoreFile = entries.get('.skillignore');
  let ig: Ignore | undefined;
  if (ignoreFile !== undefined) {
    const text = decodeUtf8(ignoreFile.data);
    if (text === undefined) diagnostics.push(diag('BUNDLE_UNREADABLE', '.skillignore is not valid UTF-8', { file: '.skillignore' }));
    else ig = await parseSkillignore(text);
  }
  // Two names one file on macOS or Windows: what a checkout there holds is not what was hashed.
  pushAll(diagnostics, pathCollisions(entries.keys()));
  const files: BundleFile[] = [];
  for (const [path, e] of entries) {
    if (!excludedWithAncestors(path, ig)) files.push({ path, size: e.data.length, mode: modeOf(e.mode) });
  }
  files.sort((a, b) => comparePaths(a.path, b.path));
  const listing: BundleListing = { files, diagnostics };
  const listed = new Set(files.map((f) => f.path));
  const entry = (path: string): TarEntry => {
    const e = listed.has(path) ? entries.get(path) : undefined;
    if (e === undefined) throw new SkillctlError('INPUT_NOT_FOUND', `${path} is not a file of ${location}`);
    return e;
  };
  return {
    location,
    ...(read.folder !== undefined ? { folder: read.folder } : {}),
    archiveDigest: sha256(bytes),
    archiveSize: bytes.length,
    list: () => Promise.resolve(listing),
    read: async (path) => Buffer.from(entry(path).data),
    digest: async (path) => sha256(entry(path).data),
    extractTo: (target) => extract(target, listing, entries),
  };
}

/**
 * Makes `target` (which must not exist or be an empty directory) and returns its resolved path,
 * or the finding that it cannot be unpacked into.
 */
export async function emptyTarget(target: string): Promise<{ root: string } | { problem: Diagnostic }> {
  const root = resolve(target);
  try {
    await mkdir(root, { recursive: false });
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') {
      return { problem: diag('ARCHIVE_TARGET_INVALID', `cannot create ${target}: ${errnoCode(err) ?? String(err)}`, { file: target }) };
    }
    let names: string[];
    try {
      names = await readdir(root);
    } catch (e) {
      return { problem: diag('ARCHIVE_TARGET_INVALID', `${target} is not a directory: ${errnoCode(e) ?? String(e)}`, { file: target }) };
    }
    if (names.length > 0) return { problem: diag('ARCHIVE_TARGET_INVALID', `${target} is not empty`, { file: target }) };
  }
  return { root };
}

/** The path of the archive file `path` under `root`; paths were checked when read, this guards the invariant. */
export function pathUnder(root: string, path: string, target: string): string {
  const dest = join(root, ...path.split('/'));
  if (!dest.startsWith(root + sep)) throw new SkillctlError('ARCHIVE_PATH_UNSAFE', `${path} would leave ${target}`);
  return dest;
}

async function extract(target: string, listing: BundleListing, entries: ReadonlyMap<string, TarEntry>): Promise<readonly Diagnostic[]> {
  if (hasErrors(listing.diagnostics)) return listing.diagnostics;
  const made = await emptyTarget(target);
  if ('problem' in made) return [made.problem];
  const { root } = made;
  for (const f of listing.files) {
    const dest = pathUnder(root, f.path, target);
    try {
      await writeEntry(root, dest, f.mode === '0755' ? 0o755 : 0o644, (entries.get(f.path) as TarEntry).data);
    } catch (err) {
      // The archive's paths were checked (each at most 4096 bytes), but the target's own path
      // comes on top of them: a path within the bound under a deep target is past the system's
      // (ENAMETOOLONG), and a full disk is no archive's fault. A finding, not an internal error.
      const code = errnoCode(err);
      if (code === undefined) throw err;
      const hint = code === 'ENAMETOOLONG' ? `the target's path and the archive's together are longer than the system allows: unpack into a shorter path` : undefined;
      return [...listing.diagnostics, diag('ARCHIVE_TARGET_INVALID', `the file cannot be written in ${target}: ${code}`, { file: f.path, ...(hint !== undefined ? { hint } : {}) })];
    }
  }
  return listing.diagnostics;
}

async function writeEntry(root: string, dest: string, mode: number, data: Uint8Array): Promise<void> {
  const parent = dest.slice(0, dest.lastIndexOf(sep));
  if (parent !== root) await makeDirs(parent, 0o755);
  // `wx`: O_CREAT|O_EXCL never follows a link at the last component and never overwrites.
  const fh = await open(dest, 'wx', mode);
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}

/**
 * Opens the archive at `path`. Throws `SkillctlError` only when the file cannot be read;
 * everything wrong with its content is a diagnostic of `list()`.
 */
export async function openArchive(path: string, bounds: BundleBounds = DEFAULT_ARCHIVE_BOUNDS, label: string = path, format: ArchiveFormat = 'tgz'): Promise<ArchiveSource> {
  // gzip never shrinks data by more than its framing, so a compressed file over the unpacked
  // bound cannot be within it: refused without reading it into memory. A FIFO or a device is
  // refused before it is opened (fs/read-bounded.ts).
  const r = await readBounded(path, { maxBytes: inflateLimit(bounds) });
  if (r.ok) return archiveSourceFromBytes(r.bytes, label, bounds, format);
  if (r.reason !== 'too-large') throw new SkillctlError(refusalCode(r), describeRefusal(r, label));
  const unreadable = (err: unknown): Promise<never> => {
    const code = errnoCode(err);
    return Promise.reject(new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `cannot read ${label}: ${code ?? String(err)}`, { cause: err }));
  };
  const listing: BundleListing = { files: [], diagnostics: [tooLarge(bounds, `the archive file is ${r.size} bytes`)] };
  const none = (): Promise<never> => Promise.reject(new SkillctlError('INPUT_NOT_FOUND', `${label} was refused as too large`));
  return {
    location: label,
    archiveDigest: await hashStream(createReadStream(path)).catch(unreadable),
    archiveSize: r.size,
    list: () => Promise.resolve(listing),
    read: none,
    digest: none,
    extractTo: () => Promise.resolve(listing.diagnostics),
  };
}
