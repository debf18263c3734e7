/**
 * The content-addressed cache of manifests and blobs (`$XDG_CACHE_HOME/skillctl/oci/blobs/sha256/<hex>`,
 * docs/formats/oci.md). A file is named after the digest of its bytes and is only ever made by
 * rename from a scratch file that was verified whole, so a reader never sees a partial one. The
 * cache is a directory anyone with the user's rights can write, so every use hashes the file
 * again: what changed between the pull that stored it and the run that uses it is refused.
 */
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { filePieces } from '../archive/index.js';
import { hashStream } from '../bundle/index.js';
import { sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { readBounded } from '../fs/index.js';
import { makeCacheDir, openCacheDir, type CacheDir } from './cache-dirs.js';

const hexOf = (digest: Sha256Digest): string => digest.slice('sha256:'.length);

export class BlobCache {
  readonly root: string;

  /** `root` is the skillctl cache directory (`$XDG_CACHE_HOME/skillctl`). */
  constructor(root: string) {
    this.root = root;
  }

  pathOf(digest: Sha256Digest): string {
    return join(this.root, 'oci', 'blobs', 'sha256', hexOf(digest));
  }

  /** The folder blobs are kept in, opened without following a link (./cache-dirs.ts); undefined while it does not exist. */
  private blobsDir(): Promise<CacheDir | undefined> {
    return openCacheDir(this.root, ['oci', 'blobs', 'sha256']);
  }

  /**
   * The cached file for `digest` if it is there, a regular file and still hashes to `digest`. It
   * is opened without following a link and without blocking (a FIFO put in its place would hang
   * a plain open), and read in pieces into one buffer. A file that does not pass is removed and
   * reported as `corrupt`. The file is read again by whoever uses it, who must hash what it reads.
   */
  async verified(digest: Sha256Digest, size?: number): Promise<{ state: 'ok'; path: string } | { state: 'missing' | 'corrupt' }> {
    const path = this.pathOf(digest);
    const dir = await this.blobsDir();
    if (dir === undefined) return { state: 'missing' };
    try {
      return await this.verifiedIn(dir, digest, path, size);
    } finally {
      await dir.close();
    }
  }

  private async verifiedIn(dir: CacheDir, digest: Sha256Digest, path: string, size: number | undefined): Promise<{ state: 'ok'; path: string } | { state: 'missing' | 'corrupt' }> {
    const inside = join(dir.at, hexOf(digest));
    const fh = await open(inside, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch((err: unknown) => (errnoCode(err) === 'ENOENT' ? 'missing' : undefined));
    if (fh === 'missing') return { state: 'missing' };
    let ok = false;
    if (fh !== undefined) {
      try {
        const st = await fh.stat();
        ok = st.isFile() && (size === undefined || st.size === size) && (await hashStream(filePieces(fh, st.size, path))) === digest;
      } catch {
        ok = false;
      } finally {
        await fh.close();
      }
    }
    if (ok) return { state: 'ok', path };
    await rm(inside, { force: true }).catch(() => undefined);
    return { state: 'corrupt' };
  }

  /**
   * The cached bytes of `digest` (a manifest, a config), read once and hashed in memory, so what
   * the caller parses is what was hashed: a file hashed on disk and then read again could be
   * swapped in between. Read at most `maxBytes`, never through a link; a file that is not a
   * regular file, is too large or no longer hashes to `digest` is removed and reported `corrupt`.
   */
  async verifiedBytes(digest: Sha256Digest, maxBytes: number, size?: number): Promise<{ state: 'ok'; bytes: Buffer } | { state: 'missing' | 'corrupt' }> {
    const dir = await this.blobsDir();
    if (dir === undefined) return { state: 'missing' };
    try {
      const inside = join(dir.at, hexOf(digest));
      const read = await readBounded(inside, { maxBytes, followLinks: false });
      if (!read.ok && read.reason === 'missing') return { state: 'missing' };
      if (read.ok && (size === undefined || read.bytes.length === size) && sha256(read.bytes) === digest) return { state: 'ok', bytes: read.bytes };
      await rm(inside, { force: true }).catch(() => undefined);
      return { state: 'corrupt' };
    } finally {
      await dir.close();
    }
  }

  /** Bytes already verified in memory (a manifest), stored under their own digest. */
  async putBytes(bytes: Buffer): Promise<string> {
    const digest = sha256(bytes);
    return this.store(digest, async (tmp) => {
      const fh = await open(tmp, 'wx', 0o644);
      try {
        await fh.writeFile(bytes);
      } finally {
        await fh.close();
      }
    });
  }

  /**
   * Runs `fill(tmp)` (which must verify what it writes) and renames the result into place. The
   * scratch file and the rename go through the folders as opened (./cache-dirs.ts), never through
   * a link put where one of them belongs.
   */
  async store(digest: Sha256Digest, fill: (tmp: string) => Promise<void>): Promise<string> {
    // tmp first: the folders it makes on the way (`skillctl`, `oci`) are the user's alone.
    const tmpDir = await makeCacheDir(this.root, ['oci', 'tmp'], 0o700);
    let blobs: CacheDir | undefined;
    const tmp = join(tmpDir.at, `${digest.slice(7, 23)}.${randomBytes(6).toString('hex')}`);
    try {
      blobs = await makeCacheDir(this.root, ['oci', 'blobs', 'sha256'], 0o755);
      await fill(tmp);
      const path = this.pathOf(digest);
      // Anyone with the user's rights can put a directory under a blob's name (a skill granted
      // the home): reported as what it is, not as a crash, every later pull of it alike.
      await rename(tmp, join(blobs.at, hexOf(digest))).catch((err: unknown) => {
        throw new SkillctlError('OUTPUT_UNWRITABLE', `cannot store ${path} in the cache: ${errnoCode(err) ?? String(err)}`, { hint: `remove it, or all of ${this.root}: the cache can always be removed` });
      });
      return path;
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    } finally {
      await blobs?.close();
      await tmpDir.close();
    }
  }
}
