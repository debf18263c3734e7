/**
 * Writing where the system says no (a read-only `pins/`, a `.lck` that is a directory, a full
 * disk) is a fact about the user's file system, not a bug in skillctl: it is reported as
 * OUTPUT_UNWRITABLE naming the path, never as INTERNAL.
 */
import { errnoCode, isSkillctlError, SkillctlError } from '../errors.js';

/** Node's system errors carry POSIX names (EACCES, EROFS, EISDIR...); other codes are not the file system's. */
const SYSTEM_ERROR = /^E[A-Z0-9]+$/;

/** Runs `write`; a system error it throws becomes OUTPUT_UNWRITABLE about `label`. */
export async function asOutputWrite<T>(label: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isSkillctlError(err)) throw err;
    const code = errnoCode(err);
    if (code === undefined || !SYSTEM_ERROR.test(code)) throw err;
    throw new SkillctlError('OUTPUT_UNWRITABLE', `cannot write ${label}: ${code}`, {
      cause: err,
      hint: code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'check the permissions of the file and its directory' : undefined,
    });
  }
}
