/**
 * The file-system calls a directory source makes, in two flavours with the same behaviour:
 * `asyncDirOps` (libuv's thread pool; the default, never blocks the calling thread) and
 * `syncDirOps` (blocking system calls). A worker thread that verifies many bundles uses the sync
 * flavour: it has nothing else to do meanwhile, and a blocking call costs a few microseconds where
 * a thread-pool round trip costs tens, which dominates when a run makes tens of thousands of them.
 */
import { closeSync, constants, createReadStream, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { modeOf, sha256, type FileMode, type Sha256Digest } from '../digest/index.js';
import { closeFd, fstat, lstat, openFd, readAt, readdirEntries, realpath, stat } from '../fs/callback-fs.js';
import { readBounded, type BoundedRead, type ReadBoundedOptions } from '../fs/read-bounded.js';
import { digestBytes, hashStream } from './hash-stream.js';

export interface DirOps {
  /** Whether these calls block the calling thread (and so suit a thread that does nothing else). */
  readonly blocking: boolean;
  readdir(path: string): Promise<Dirent[]>;
  lstat(path: string): Promise<{ size: number; mode: number }>;
  /** Type and size, following links (for a bundle root or an archive path). */
  stat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; size: number }>;
  realpath(path: string): Promise<string>;
  /** A whole text file (`.skillignore`, read after the listing saw a regular file), as `readRegular` opens it, at most 1 MiB. */
  readText(path: string): Promise<string>;
  /**
   * A file a lock names outside any bundle (its keys file, a pinned archive or pack, a provenact
   * bundle's files), bounded in size and kind (../fs/read-bounded.ts). Through this call and not
   * node:fs, so that a lock read from a git tree (verify-pins --staged) reads them from that tree.
   */
  readBounded(path: string, opts: ReadBoundedOptions): Promise<BoundedRead>;
  /** A regular file's bytes, refusing a symbolic link in the last component (O_NOFOLLOW). */
  readRegular(path: string): Promise<Buffer>;
  /** sha256 of a regular file's bytes, as `readRegular` opens it; large files are streamed. */
  digestRegular(path: string): Promise<Sha256Digest>;
  /**
   * A listed file opened once, as `readRegular` opens it: its size and mode from the open file
   * and, unless it is over `maxBytes` (then nothing is read), the sha256 of its bytes; the bytes
   * themselves when at most `keepBytes`. Size, mode and digest all describe one file, whatever
   * is renamed over its path meanwhile. Where a flavour leaves it out (a git tree, whose sizes
   * cost nothing to list), sources list, then hash.
   */
  hashRegular?(path: string, maxBytes: number, keepBytes: number): Promise<HashedRegular>;
  /**
   * A directory of a walk, opened (O_DIRECTORY, and O_NOFOLLOW unless `follow`): a directory
   * swapped for a link after its parent was listed is refused (ELOOP) instead of entered. Its
   * listing and the opens of its entries go through the handle's `path`, the directory the kernel
   * opened (/proc/self/fd/N on Linux), so a swap after the open leads nowhere either. Where a
   * flavour leaves it out (a git tree, which holds no links to follow), walks list by path.
   */
  openDir?(path: string, follow: boolean): Promise<DirHandle>;
}

export interface DirHandle {
  /** Where the directory's entries are reached: /proc/self/fd/N on Linux, else the path it was opened by. */
  readonly path: string;
  /** The directory's fstat, where the open took one (Linux): what was opened, whatever its path names now. */
  readonly stats?: Stats;
  close(): Promise<void>;
}

export interface HashedRegular {
  readonly size: number;
  readonly mode: FileMode;
  /** Absent when the file is over the caller's bound. */
  readonly digest?: Sha256Digest;
  readonly bytes?: Buffer;
}

/** Files up to this size are read whole and hashed in one call; larger ones are streamed. */
const WHOLE_FILE = 32 * 1024 * 1024;
const CHUNK = 1024 * 1024;
// O_NONBLOCK: a FIFO swapped in after the listing must not block the open (fstat refuses it).
const NOFOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Whether an open directory can be named by its descriptor (without /proc, by the path it was opened by). */
const PROC_FD = process.platform === 'linux';
/** O_PATH (Linux): a handle that names a file without opening it for I/O. Not in fs.constants. */
const O_PATH = 0o10000000;
/**
 * How a directory of a walk is opened. On Linux as a handle (O_PATH): nothing swapped in is
 * opened for I/O (a FIFO cannot block, a device cannot act), and fstat then says what it is, a
 * link included: Linux answers O_NOFOLLOW with O_DIRECTORY on a link ENOTDIR, as for a file, and
 * a look afterwards could see the directory swapped back. Elsewhere O_DIRECTORY, where
 * O_NOFOLLOW on a link is ELOOP (O_NONBLOCK: a FIFO must not block the open it refuses).
 */
const DIRECTORY = PROC_FD ? O_PATH : constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;
/** `.skillignore` is a list of patterns; anything larger is not one. */
const TEXT_MAX_BYTES = 1024 * 1024;
const chunk = Buffer.allocUnsafe(CHUNK);

/** Refuses a listed text file (`.skillignore`) over its bound, as an errno-style error (callers report errno codes). */
function checkTextSize(file: string, size: number): void {
  if (size > TEXT_MAX_BYTES) throw Object.assign(new Error(`${file} exceeds ${TEXT_MAX_BYTES} bytes`), { code: 'EFBIG' });
}

function dirFlags(follow: boolean): number {
  return follow ? DIRECTORY : DIRECTORY | constants.O_NOFOLLOW;
}

/** The handle of a directory opened with `dirFlags`; a link or anything but a directory (Linux's fstat says which) is thrown as ELOOP or ENOTDIR. */
function dirHandle(path: string, fd: number, st: Stats | undefined, close: (fd: number) => Promise<void>): DirHandle {
  if (st !== undefined && !st.isDirectory()) {
    const link = st.isSymbolicLink();
    throw Object.assign(new Error(`${path} is ${link ? 'a symbolic link' : 'not a directory'}`), { code: link ? 'ELOOP' : 'ENOTDIR' });
  }
  return { path: PROC_FD ? `/proc/self/fd/${fd}` : path, ...(st !== undefined && { stats: st }), close: () => close(fd) };
}

function notRegular(file: string): Error {
  return Object.assign(new Error(`${file} is not a regular file`), { code: 'EINVAL' });
}

/**
 * Opens a listed file without following a symlink in its last component: a file swapped for a
 * link after listing must not make us read outside the bundle.
 */
async function openRegular(file: string): Promise<{ fd: number; size: number; mode: number }> {
  const fd = await openFd(file, NOFOLLOW);
  let st;
  try {
    st = await fstat(fd);
  } catch (err) {
    await closeFd(fd);
    throw err;
  }
  if (!st.isFile()) {
    await closeFd(fd);
    throw notRegular(file);
  }
  return { fd, size: st.size, mode: st.mode };
}

/** Reads exactly `size` bytes from an open file (one fstat was already paid by the caller). */
async function readAll(fd: number, size: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const bytesRead = await readAt(fd, buf, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return off === size ? buf : buf.subarray(0, off);
}

export const asyncDirOps: DirOps = {
  blocking: false,
  readdir: readdirEntries,
  lstat,
  stat,
  realpath,
  async readText(path) {
    const { fd, size } = await openRegular(path);
    try {
      checkTextSize(path, size);
      return (await readAll(fd, size)).toString('utf8');
    } finally {
      await closeFd(fd);
    }
  },
  readBounded,
  async readRegular(path) {
    const { fd, size } = await openRegular(path);
    try {
      return await readAll(fd, size);
    } finally {
      await closeFd(fd);
    }
  },
  async digestRegular(path) {
    const { fd, size } = await openRegular(path);
    try {
      // Whole files hashed on the thread pool when large enough to be worth it; very large
      // ones streamed so memory stays bounded.
      if (size <= WHOLE_FILE) return await digestBytes(await readAll(fd, size));
      return await hashStream(createReadStream('', { fd, autoClose: false, start: 0, end: size - 1 }));
    } finally {
      await closeFd(fd);
    }
  },
  async hashRegular(path, maxBytes, keepBytes) {
    const { fd, size, mode } = await openRegular(path);
    try {
      if (size > maxBytes) return { size, mode: modeOf(mode) };
      if (size <= keepBytes) {
        const bytes = await readAll(fd, size);
        return { size, mode: modeOf(mode), digest: sha256(bytes), bytes };
      }
      // Up to the size fstat gave, as the blocking flavour reads: a file that grows meanwhile is
      // hashed as it was listed (and then no longer matches), never read past its bound.
      const digest = size <= WHOLE_FILE ? await digestBytes(await readAll(fd, size)) : await hashStream(createReadStream('', { fd, autoClose: false, start: 0, end: size - 1 }));
      return { size, mode: modeOf(mode), digest };
    } finally {
      await closeFd(fd);
    }
  },
  async openDir(path, follow) {
    const fd = await openFd(path, dirFlags(follow));
    try {
      return dirHandle(path, fd, PROC_FD ? await fstat(fd) : undefined, closeFd);
    } catch (err) {
      await closeFd(fd);
      throw err;
    }
  },
};

function withRegularSync<T>(path: string, fn: (fd: number, size: number, mode: number) => T): T {
  const fd = openSync(path, NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(path);
    return fn(fd, st.size, st.mode);
  } finally {
    closeSync(fd);
  }
}

/**
 * sha256 of an open file's first `size` bytes. One buffer per thread, reused: blocking calls never
 * interleave, and a file read into a fresh buffer each time costs more in allocation and
 * collection than in hashing. The file is read up to the size fstat gave, as the thread-pool
 * flavour reads it.
 */
function digestFdSync(fd: number, size: number): Sha256Digest {
  if (size <= CHUNK) return sha256(chunk.subarray(0, readInto(fd, chunk, size)));
  const h = createHash('sha256');
  for (let off = 0; off < size; ) {
    const n = readSync(fd, chunk, 0, Math.min(CHUNK, size - off), off);
    if (n === 0) break;
    h.update(chunk.subarray(0, n));
    off += n;
  }
  return `sha256:${h.digest('hex')}` as Sha256Digest;
}

/** Reads up to `size` bytes from the start of the file into `buf`; returns how many. */
function readInto(fd: number, buf: Buffer, size: number): number {
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return off;
}

function readAllSync(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return off === size ? buf : buf.subarray(0, off);
}

/** Promise-shaped results of blocking calls, run at once; a thrown error becomes a rejection (the executor's). */
function now<T>(fn: () => T): Promise<T> {
  return new Promise((resolve) => resolve(fn()));
}

export const syncDirOps: DirOps = {
  blocking: true,
  readdir: (path) => now(() => readdirSync(path, { withFileTypes: true })),
  lstat: (path) => now(() => lstatSync(path)),
  stat: (path) => now(() => statSync(path)),
  realpath: (path) => now(() => realpathSync.native(path)),
  readText: (path) =>
    now(() =>
      withRegularSync(path, (fd, size) => {
        checkTextSize(path, size);
        return readAllSync(fd, size).toString('utf8');
      }),
    ),
  // Rare reads (keys files, archives): the asynchronous reader serves both flavours.
  readBounded,
  readRegular: (path) => now(() => withRegularSync(path, readAllSync)),
  digestRegular: (path) => now(() => withRegularSync(path, digestFdSync)),
  hashRegular: (path, maxBytes, keepBytes) =>
    now(() =>
      withRegularSync(path, (fd, size, mode): HashedRegular => {
        if (size > maxBytes) return { size, mode: modeOf(mode) };
        if (size > keepBytes) return { size, mode: modeOf(mode), digest: digestFdSync(fd, size) };
        const bytes = readAllSync(fd, size);
        return { size, mode: modeOf(mode), digest: sha256(bytes), bytes };
      }),
    ),
  openDir: (path, follow) =>
    now(() => {
      const fd = openSync(path, dirFlags(follow));
      try {
        return dirHandle(path, fd, PROC_FD ? fstatSync(fd) : undefined, (d) => now(() => closeSync(d)));
      } catch (err) {
        closeSync(fd);
        throw err;
      }
    }),
};
