/**
 * Opening a file skillctl is about to read whole (an archive to hash, unpack or upload) when the
 * caller needs the descriptor, not the bytes (readBounded reads them). Its path may have been
 * swapped since it was last looked at: a FIFO put in its place would block a plain open forever
 * in the thread pool (the process never exits), so the open cannot block (O_NONBLOCK, which
 * changes nothing for a regular file) and the opened descriptor is checked with fstat.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { errnoCode, isSkillctlError, SkillctlError } from '../errors.js';

export interface OpenedFile {
  readonly fh: FileHandle;
  /** The size fstat gave. */
  readonly size: number;
}

/**
 * Opens `path` for reading if it is a regular file: INPUT_NOT_FOUND when it is missing,
 * INPUT_NOT_REGULAR_FILE when it is anything else (a FIFO, a directory, a device), and
 * INPUT_UNREADABLE when it cannot be opened; `label` names it in the message. The caller closes it.
 */
export async function openRegularFile(path: string, label: string): Promise<OpenedFile> {
  let fh: FileHandle;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = errnoCode(err);
    throw new SkillctlError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'INPUT_UNREADABLE', `cannot read ${label}: ${code ?? String(err)}`, { cause: err });
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new SkillctlError('INPUT_NOT_REGULAR_FILE', `${label} is not a regular file`);
    return { fh, size: st.size };
  } catch (err) {
    await fh.close();
    if (isSkillctlError(err)) throw err;
    throw new SkillctlError('INPUT_UNREADABLE', `cannot read ${label}: ${errnoCode(err) ?? String(err)}`, { cause: err });
  }
}
