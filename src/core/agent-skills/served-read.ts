/**
 * Reading the files of a served skill: hashing them for a listing, and reading one for a host.
 * Both open the file without following a link in its last component and take the identity of
 * what they opened (fstat), never of a path looked at before: the digest a listing records is
 * the digest of the file whose identity it records. A read for a host answers only with bytes
 * that are the listed file's (same identity) and hash to the listed digest, so no cache and no
 * change between listing and read can put bytes under a digest they do not have.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { DirCursor, LinkOnTheWay, RootChanged, syncDirOps, type RootIdentity } from '../bundle/index.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import type { ServedFile } from './served-model.js';
import { identityOf, sameIdentity, type FileIdentity } from './served-walk.js';

/** Why a listed file was not read: it is no longer the file the listing hashed. */
export class ServedFileChanged extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since it was listed`);
  }
}

// O_NOFOLLOW: a file swapped for a link is refused; O_NONBLOCK: a FIFO swapped in does not block the open.
const OPEN_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;
const CHUNK = 1024 * 1024;
// One buffer, reused: these reads block, so they never interleave.
const chunk = Buffer.allocUnsafe(CHUNK);

function notRegular(path: string): Error {
  return Object.assign(new Error(`${path} is not a regular file`), { code: 'EINVAL' });
}

/** A file cut short while it was read: it is being written, and is hashed again at the next listing. */
function shrank(path: string): Error {
  return Object.assign(new Error(`${path} changed while it was read`), { code: 'EAGAIN' });
}

/** A file to be kept whole (`hashRegularFile`'s `keep`) that is larger than the bound given: never read. */
export class KeptFileTooLarge extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly max: number,
  ) {
    super(`${path} is ${size} bytes; the bound is ${max}`);
  }
}

/** What hashing a file for a listing found: its digest, the identity of what was read, and (`keep`) its bytes. */
export interface HashedFile {
  readonly digest: Sha256Digest;
  readonly identity: FileIdentity;
  readonly bytes?: Buffer;
}

/**
 * Hashes a regular file (blocking calls: a listing is many small files). Large files are hashed
 * in chunks; `keep` returns the bytes too (SKILL.md, whose frontmatter is parsed from the very
 * bytes hashed). Throws with the errno code when the file cannot be opened or is not regular, and
 * KeptFileTooLarge, before any read, when a file to keep is larger than `maxKept` as opened: a
 * SKILL.md of 2 GB (zeros, a few MB in a git repository) was read whole into one buffer at every
 * listing before the check that refuses it.
 */
export function hashRegularFile(path: string, keep: boolean, maxKept = Number.POSITIVE_INFINITY): HashedFile {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(path);
    const size = st.size;
    if (keep && size > maxKept) throw new KeptFileTooLarge(path, size, maxKept);
    if (keep || size > CHUNK) {
      const h = createHash('sha256');
      const whole = keep ? Buffer.allocUnsafe(size) : undefined;
      let off = 0;
      while (off < size) {
        const into = whole ?? chunk;
        const n = readSync(fd, into, whole !== undefined ? off : 0, Math.min(CHUNK, size - off), off);
        if (n === 0) break;
        h.update(whole !== undefined ? whole.subarray(off, off + n) : chunk.subarray(0, n));
        off += n;
      }
      if (off !== size) throw shrank(path);
      const digest = `sha256:${h.digest('hex')}` as Sha256Digest;
      return { digest, identity: identityOf(st), ...(whole !== undefined ? { bytes: whole.subarray(0, off) } : {}) };
    }
    let off = 0;
    while (off < size) {
      const n = readSync(fd, chunk, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    if (off !== size) throw shrank(path);
    return { digest: sha256(chunk.subarray(0, off)), identity: identityOf(st) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of one listed file, only if the file opened is the one listed (same device, inode,
 * size and times) and its bytes hash to the listed digest: a file replaced, edited, or reached
 * through a directory swapped for a link since the listing throws ServedFileChanged, and the
 * caller lists the skill again. The file is reached from `base` (the root the skill was found
 * under; `dir` itself when not given) through the handles of the directories down to it, none
 * followed when it is a link (bundle/dir-below.ts): a directory of the skill swapped for a link
 * to `~/.ssh` is refused there, before any file beyond it is opened. Given `baseId`, the identity
 * the root was held to (served-roots.ts), the root is opened without following a link and must
 * still be that directory: a root swapped since is a file that changed.
 */
export async function readServedFile(dir: string, file: ServedFile, base: string = dir, baseId?: RootIdentity): Promise<Buffer> {
  if (file.made !== undefined) return Buffer.from(file.made);
  const below = dir === base ? '' : relative(base, dir).split(sep).join('/');
  const cursor = new DirCursor(syncDirOps, base, baseId, false);
  let at: string;
  try {
    at = await cursor.file(below === '' ? file.path : `${below}/${file.path}`);
  } catch (err) {
    await cursor.close();
    if (err instanceof LinkOnTheWay || err instanceof RootChanged) throw new ServedFileChanged(file.path);
    throw err;
  }
  try {
    return readListed(at, file);
  } finally {
    await cursor.close();
  }
}

/** The listed file opened at `at`, checked against its listing (see `readServedFile`). */
function readListed(at: string, file: ServedFile): Buffer {
  // Blocking calls: one small file a request, where the thread pool's round trips (open, stat,
  // read, close) cost more than the read.
  const fd = openSync(at, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || file.identity === undefined || !sameIdentity(st, file.identity)) throw new ServedFileChanged(file.path);
    const bytes = Buffer.alloc(file.size);
    let off = 0;
    while (off < file.size) {
      const n = readSync(fd, bytes, off, file.size - off, off);
      if (n === 0) break;
      off += n;
    }
    // The times a file system keeps can miss a change (a coarse clock, a restored mtime on a
    // system whose ctime is coarse too): the bytes themselves must be the ones listed.
    if (off !== file.size || sha256(bytes) !== file.digest) throw new ServedFileChanged(file.path);
    return bytes;
  } finally {
    closeSync(fd);
  }
}
