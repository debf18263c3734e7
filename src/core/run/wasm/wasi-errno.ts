/**
 * The errno a WASI call answers for a failure of the checked file layer or of the system: a
 * refusal by the policy is NOTCAPABLE, the rest maps from the system's code, and anything not
 * named is IO, so no host detail (a message, a path) reaches the module.
 */
import { errnoCode } from '../../errors.js';
import type { FsFailure } from '../../policy/index.js';
import { ERRNO } from './wasi-abi.js';

const ERRNO_OF: Readonly<Record<string, number>> = {
  EACCES: ERRNO.ACCES,
  EEXIST: ERRNO.EXIST,
  EINVAL: ERRNO.INVAL,
  EISDIR: ERRNO.ISDIR,
  ELOOP: ERRNO.LOOP,
  ENAMETOOLONG: ERRNO.NAMETOOLONG,
  ENOENT: ERRNO.NOENT,
  ENOSPC: ERRNO.NOSPC,
  ENOTDIR: ERRNO.NOTDIR,
  ENOTEMPTY: ERRNO.NOTEMPTY,
  EPERM: ERRNO.PERM,
  EXDEV: ERRNO.XDEV,
};

export function errnoOf(f: FsFailure): number {
  switch (f.kind) {
    case 'denied':
      return ERRNO.NOTCAPABLE;
    case 'missing':
      return ERRNO.NOENT;
    case 'not-dir':
      return ERRNO.NOTDIR;
    case 'not-file':
      return ERRNO.LOOP;
    default:
      return ERRNO_OF[f.code] ?? ERRNO.IO;
  }
}

/** SUCCESS for an operation that did not fail, else its failure's errno. */
export const errnoOfResult = (f: FsFailure | undefined): number => (f === undefined ? ERRNO.SUCCESS : errnoOf(f));

/** The errno for an error thrown by the system rather than returned by the layer. */
export const errnoOfThrown = (e: unknown): number => ERRNO_OF[errnoCode(e) ?? ''] ?? ERRNO.IO;
