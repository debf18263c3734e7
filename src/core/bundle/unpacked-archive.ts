/**
 * A .tgz unpacked as it streams, for archives too large to hold in memory (a pulled or pushed
 * layer). The compressed bytes are hashed as they are read, inflated with a bound on the output,
 * and walked by the same guarded tar walk as `readTgz` (../archive/tar-walk.ts): a file is
 * written only after its header passed every check, into a file created with O_EXCL under the
 * target, and hashed as it is written. Once one finding is an error nothing more is written (the
 * walk goes on, so the findings are the ones the in-memory reader gives). The result is a bundle
 * source over the unpacked folder, filtered by `.skillignore` as an archive read in memory is, with
 * every file's digest from the unpacking: validating it reads only the files a rule reads.
 *
 * The target must be a fresh folder the caller removes when the result has errors: what was
 * written before the first finding is left there.
 */
import { pushAll } from '../findings.js';
import { createHash } from 'node:crypto';
import { open, readFile, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import type { TransformOptions } from 'node:stream';
import type { Gunzip, ZlibOptions } from 'node:zlib';
import type { Ignore } from 'ignore';
import { decodeUtf8, filePieces, inflateLimit, tooLarge, TarWalk, type ArchiveBounds, type TarEvent } from '../archive/index.js';
import { diag, hasErrors, type Diagnostic } from '../diagnostics.js';
import { comparePaths, modeOf, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { makeDirs, openRegularFile } from '../fs/index.js';
import { emptyTarget, pathUnder } from './archive-source.js';
import { pathCollisions } from './fold-name.js';
import { excludedWithAncestors, parseSkillignore } from './path-filter.js';
import type { BundleFile, BundleListing, BundleSource } from './source.js';

/**
 * Inflated pieces of this size: fewer, larger writes than zlib's 16 KiB default (each write and
 * each inflate call is a round trip to the thread pool), still small.
 */
const PIECE = 256 * 1024;

/**
 * How far the inflater (on the thread pool) may run ahead of the walk and the file writes. With
 * the stream default (16 KiB, less than one piece) it waited for every write before inflating
 * the next piece; with 4 pieces of room, inflating and writing overlap (docs/performance.md).
 */
const INFLATE_AHEAD = 4 * PIECE;

/** What `unpackTgz` made of a stream: a bundle source over the folder written. */
export interface UnpackedStream extends BundleSource {
  /** The folder the files were written into. */
  readonly dir: string;
  /** How many compressed bytes were read. */
  readonly archiveSize: number;
}

/** An archive file unpacked: also the sha256 of its compressed bytes, hashed as they were read. */
export interface UnpackedArchive extends UnpackedStream {
  readonly archiveDigest: Sha256Digest;
}

interface Writing {
  readonly path: string;
  readonly fh: FileHandle | undefined;
  readonly hash: ReturnType<typeof createHash>;
  readonly mode: number;
  size: number;
}

/** Writes what the walk passes on; stops writing at the first error finding. */
class Writer {
  readonly written = new Map<string, { size: number; mode: number; digest: Sha256Digest }>();
  private current: Writing | undefined;
  private readonly made = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly target: string,
    private readonly walk: TarWalk,
  ) {}

  async take(e: TarEvent): Promise<void> {
    if (e.kind === 'file') {
      const writing = !hasErrors(this.walk.diagnostics);
      let fh: FileHandle | undefined;
      if (writing) fh = await this.create(e.path, e.mode);
      this.current = { path: e.path, fh, hash: createHash('sha256'), mode: e.mode, size: 0 };
    } else if (e.kind === 'data') {
      const c = this.current;
      if (c?.fh === undefined) return;
      c.hash.update(e.bytes);
      c.size += e.bytes.length;
      await c.fh.write(e.bytes);
    } else {
      const c = this.current;
      this.current = undefined;
      if (c?.fh === undefined) return;
      await c.fh.close();
      this.written.set(c.path, { size: c.size, mode: c.mode, digest: `sha256:${c.hash.digest('hex')}` });
    }
  }

  /**
   * Creates the file of the entry at `path`, or reports why it cannot. The walk refuses a path
   * twice and a path that is both a file and a folder, so a name already taken here was taken
   * under another spelling that this file system stores as one (`A/x` after `a/x` on macOS or
   * Windows), or by something put into the fresh target meanwhile: a finding, which stops the
   * writing as any error finding does, never a crash.
   */
  private async create(path: string, mode: number): Promise<FileHandle | undefined> {
    const dest = pathUnder(this.root, path, this.target);
    const parent = dirname(dest);
    try {
      if (parent !== this.root && !this.made.has(parent)) {
        await makeDirs(parent, 0o755);
        this.made.add(parent);
      }
      // `wx`: O_CREAT|O_EXCL never follows a link at the last component and never overwrites.
      return await open(dest, 'wx', modeOf(mode) === '0755' ? 0o755 : 0o644);
    } catch (err) {
      const code = errnoCode(err);
      if (code !== 'EEXIST' && code !== 'ENOTDIR' && code !== 'EISDIR') throw err;
      this.walk.diagnostics.push(
        diag('BUNDLE_PATH_COLLISION', `${path} cannot be unpacked: the folder it is unpacked into already holds a name this file system takes for it (${code})`, { file: path }),
      );
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.current?.fh?.close();
    this.current = undefined;
  }
}

const isZlibError = (err: unknown): boolean => errnoCode(err)?.startsWith('Z_') === true;

/** A zlib error is damaged input; anything else (the input could not be read) is thrown on. */
function gzipProblem(err: unknown, head: Buffer): Diagnostic {
  if (!isZlibError(err)) throw err;
  if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return diag('ARCHIVE_MALFORMED', 'not a gzip file');
  return diag('ARCHIVE_MALFORMED', `gzip data is damaged: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Writes `pieces` into the inflater, each consumed (its write callback) before the next is asked
 * for, so a source may reuse its buffer (../archive/file-pieces.ts); then ends it. Settles with
 * undefined, or the error that stopped it: the input's (the inflater is destroyed with it, so
 * the reader sees it too) or the inflater's. An inflater closed early (the walk stopped) ends it
 * quietly.
 */
async function feed(pieces: AsyncIterable<Buffer>, gz: Gunzip): Promise<unknown> {
  const closed = new Promise<'closed'>((resolve) => gz.once('close', () => resolve('closed')));
  try {
    for await (const piece of pieces) {
      const written = new Promise<unknown>((resolve) => gz.write(piece, (err) => resolve(err ?? undefined)));
      const outcome = await Promise.race([written, closed]);
      if (outcome === 'closed') return undefined;
      if (outcome !== undefined) return outcome;
    }
    gz.end();
    return undefined;
  } catch (err) {
    gz.destroy(err instanceof Error ? err : new Error(String(err)));
    return err;
  }
}

/**
 * Unpacks the gzip stream `input` into `target` (made here; it must not exist or be empty).
 * `location` names the archive in findings and errors. The compressed bytes are not hashed here:
 * a caller that needs their digest hashes the pieces it hands in (pull's download already does,
 * `unpackTgzFile` below does for a file), so no byte is hashed twice.
 */
export async function unpackTgz(input: AsyncIterable<Buffer>, target: string, bounds: ArchiveBounds, location: string): Promise<UnpackedStream> {
  const made = await emptyTarget(target);
  if ('problem' in made) throw new SkillctlError(made.problem.code, made.problem.message);
  const { root } = made;
  let archiveSize = 0;
  let head = Buffer.alloc(0);
  async function* tapped(): AsyncGenerator<Buffer> {
    for await (const piece of input) {
      if (head.length < 2) head = Buffer.concat([head, piece.subarray(0, 2)]);
      archiveSize += piece.length;
      yield piece;
    }
  }
  // node:zlib hands stream options on to its Transform (the type declares zlib's own only).
  const options: ZlibOptions & TransformOptions = { chunkSize: PIECE, readableHighWaterMark: INFLATE_AHEAD };
  // Loaded here, not at the top: see read-tgz.ts.
  const gz = (await import('node:zlib')).createGunzip(options);
  // Settles when the input is used up or the inflater is destroyed (the walk stopped early).
  const feeding = feed(tapped(), gz);
  const walk = new TarWalk(bounds);
  const writer = new Writer(root, target, walk);
  const limit = inflateLimit(bounds);
  let inflated = 0;
  let stoppedEarly = false;
  try {
    for await (const piece of gz as AsyncIterable<Buffer>) {
      inflated += piece.length;
      if (inflated > limit) {
        walk.diagnostics.push(tooLarge(bounds, `the archive inflates to more than ${limit} bytes`));
        stoppedEarly = true;
        break;
      }
      for (const e of walk.push(piece)) await writer.take(e);
      if (walk.stopped) {
        stoppedEarly = true;
        break;
      }
    }
  } catch (err) {
    walk.diagnostics.push(gzipProblem(err, head));
    stoppedEarly = true;
  } finally {
    await writer.close();
    if (stoppedEarly) gz.destroy();
  }
  const fed = await feeding;
  if (fed !== undefined && !stoppedEarly) walk.diagnostics.push(gzipProblem(fed, head));
  if (!stoppedEarly) walk.end();
  // Stopping early destroys the inflater, which ends the feeding with an abort: that is no error.
  const aborted = ['ERR_STREAM_PREMATURE_CLOSE', 'ABORT_ERR', 'ERR_STREAM_DESTROYED'].includes(errnoCode(fed) ?? '');
  if (fed !== undefined && stoppedEarly && !isZlibError(fed) && !aborted) throw fed;
  return listUnpacked(root, location, writer.written, walk.diagnostics, archiveSize);
}

/** Drops what `.skillignore` and the excluded folders leave out, as a listing of an archive in memory does. */
async function listUnpacked(
  root: string,
  location: string,
  written: ReadonlyMap<string, { size: number; mode: number; digest: Sha256Digest }>,
  diagnostics: Diagnostic[],
  archiveSize: number,
): Promise<UnpackedStream> {
  const fileOf = (path: string): string => pathUnder(root, path, location);
  let ig: Ignore | undefined;
  if (written.has('.skillignore')) {
    const text = decodeUtf8(await readFile(fileOf('.skillignore')));
    if (text === undefined) diagnostics.push(diag('BUNDLE_UNREADABLE', '.skillignore is not valid UTF-8', { file: '.skillignore' }));
    else ig = await parseSkillignore(text);
  }
  // Two names one file on macOS or Windows: what a checkout there holds is not what was hashed.
  pushAll(diagnostics, pathCollisions(written.keys()));
  const files: BundleFile[] = [];
  const digests = new Map<string, Sha256Digest>();
  for (const [path, f] of written) {
    if (!excludedWithAncestors(path, ig)) {
      files.push({ path, size: f.size, mode: modeOf(f.mode) });
      digests.set(path, f.digest);
      continue;
    }
    // Not part of the bundle: removed, with the folders it leaves empty.
    await unlink(fileOf(path));
    for (let dir = dirname(fileOf(path)); dir.startsWith(root + sep); dir = dirname(dir)) {
      if (!(await rmdir(dir).then(() => true, () => false))) break;
    }
  }
  files.sort((a, b) => comparePaths(a.path, b.path));
  const listing: BundleListing = { files, diagnostics };
  const listed = (path: string): string => {
    if (!digests.has(path)) throw new SkillctlError('INPUT_NOT_FOUND', `${path} is not a file of ${location}`);
    return fileOf(path);
  };
  return {
    location,
    dir: root,
    archiveSize,
    list: () => Promise.resolve(listing),
    read: async (path) => readFile(listed(path)),
    digest: async (path) => {
      listed(path);
      return digests.get(path) as Sha256Digest;
    },
  };
}

/** Unpacks the regular .tgz file at `path` into `target` (see `unpackTgz`). */
export async function unpackTgzFile(path: string, target: string, bounds: ArchiveBounds, location: string = path): Promise<UnpackedArchive> {
  const { fh, size } = await openRegularFile(path, location);
  try {
    const hash = createHash('sha256');
    async function* hashed(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const piece of pieces) {
        hash.update(piece);
        yield piece;
      }
    }
    const unpacked = await unpackTgz(hashed(filePieces(fh, size, location, PIECE)), target, bounds, location);
    return { ...unpacked, archiveDigest: `sha256:${hash.digest('hex')}` };
  } finally {
    await fh.close();
  }
}
