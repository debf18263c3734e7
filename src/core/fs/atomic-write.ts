import { randomBytes } from 'node:crypto';
import { closeFd, fsync, lstat, openFd, rename, rmForce, writeAll } from './callback-fs.js';
import { basename, dirname, join } from 'node:path';
import { hostTag, type Maker, type NamedMaker } from './maker.js';

/**
 * `.<name>.<pid>[-<host>].<tag>.tmp`: the writer's id (and, when the caller names it, its host's
 * digest), then a random tag. A process killed between writing and renaming leaves it; the
 * writer's name in it lets a later sweep tell that leftover from a write in progress.
 */
const TEMP_NAME = /^\.(.+)\.(\d+)(?:-([0-9a-f]{12}))?\.[0-9a-f]{12}\.tmp$/;

/** The file `name` is a temporary file for (its base name) and its writer, when `writeTempBeside` made it. */
export function tempFileOf(name: string): { readonly target: string; readonly maker: NamedMaker } | undefined {
  const m = TEMP_NAME.exec(name);
  if (m === null) return undefined;
  const host = m[3];
  return { target: m[1] as string, maker: { pid: Number(m[2]), ...(host !== undefined ? { host } : {}) } };
}

/**
 * Writes `data` to a new temporary file in `path`'s directory, flushed to disk, and returns its
 * name; on failure nothing is left behind. The caller renames or links it into place. `maker`
 * names the writer's host too, for files a later process sweeps (mcp-skills/leftovers.ts).
 */
export async function writeTempBeside(path: string, data: string | Uint8Array, mode: number, maker?: Maker): Promise<string> {
  const writer = maker === undefined ? String(process.pid) : `${maker.pid}-${hostTag(maker.hostname)}`;
  const tmp = join(dirname(path), `.${basename(path)}.${writer}.${randomBytes(6).toString('hex')}.tmp`);
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
 * The permission bits a rewrite of `path` keeps: the regular file's own (a manifest the user made
 * 0600 must not turn world-readable, a script must keep its execute bits), less the write bits of
 * group and others, which skillctl never hands out; 0644 for a new file, or where a link or
 * anything but a regular file stands (it is replaced, never followed).
 */
async function keptMode(path: string): Promise<number> {
  const st = await lstat(path).catch(() => undefined);
  return st?.isFile() === true ? st.mode & 0o755 : 0o644;
}

/**
 * Writes a file so that readers see either the old content or the new, never a mix: write a
 * temporary file in the same directory, flush it to disk, then rename it over the target.
 * A crash at any point leaves the old file intact (at worst, a stray temporary file). Without
 * `mode`, the file keeps the permissions it had (keptMode).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number, maker?: Maker): Promise<void> {
  const tmp = await writeTempBeside(path, data, mode ?? (await keptMode(path)), maker);
  try {
    await rename(tmp, path);
  } catch (err) {
    await rmForce(tmp);
    throw err;
  }
}
