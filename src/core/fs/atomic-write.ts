import { randomBytes } from 'node:crypto';
import { closeFd, fsync, openFd, rename, rmForce, writeAll } from './callback-fs.js';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to a new temporary file in `path`'s directory, flushed to disk, and returns its
 * name; on failure nothing is left behind. The caller renames or links it into place.
 */
export async function writeTempBeside(path: string, data: string | Uint8Array, mode: number): Promise<string> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = await openFd(tmp, 'wx', mode);
  try {
    await writeAll(fd, data);
    await fsync(fd);
  } catch (err) {
    await closeFd(fd);
    await rmForce(tmp);
    throw err;
  }
  await closeFd(fd);
  return tmp;
}

/**
 * Writes a file so that readers see either the old content or the new, never a mix: write a
 * temporary file in the same directory, flush it to disk, then rename it over the target.
 * A crash at any point leaves the old file intact (at worst, a stray temporary file).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = await writeTempBeside(path, data, mode);
  try {
    await rename(tmp, path);
  } catch (err) {
    await rmForce(tmp);
    throw err;
  }
}
