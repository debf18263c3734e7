/** Opening files the policy allowed without being tricked by what they turn out to be. */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { errnoCode } from '../../core/errors.js';
import type { BuiltinOutcome } from '../../core/run/index.js';
import { fail } from './outcome.js';

/**
 * Opens a resolved path for reading. O_NOFOLLOW refuses a symlink swapped in after the policy
 * resolved the path; O_NONBLOCK keeps a FIFO from blocking the open; anything but a regular
 * file is refused after fstat.
 */
export async function openRegular(resolved: string, shown: string): Promise<{ fh: FileHandle; size: number } | { outcome: BuiltinOutcome }> {
  let fh: FileHandle;
  try {
    fh = await open(resolved, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { outcome: fail('SKILL_FILE_NOT_FOUND', `${shown} does not exist`) };
    if (code === 'ELOOP' || code === 'EISDIR') return { outcome: fail('SKILL_NOT_A_FILE', `${shown} is not a regular file`) };
    return { outcome: fail('SKILL_NOT_A_FILE', `${shown} cannot be opened (${code ?? 'error'})`) };
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    return { outcome: fail('SKILL_NOT_A_FILE', `${shown} is not a regular file`) };
  }
  return { fh, size: st.size };
}

/** Reads up to `max` bytes from the start of an open file. */
export async function readUpTo(fh: FileHandle, max: number): Promise<Buffer> {
  const buf = Buffer.alloc(max);
  let filled = 0;
  while (filled < max) {
    const { bytesRead } = await fh.read(buf, filled, max - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buf.subarray(0, filled);
}
