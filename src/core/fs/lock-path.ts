/** Where the write lock of a file lies (file-lock.ts): beside it, `.<name>.lck`. */
import { basename, dirname, join } from 'node:path';

/** The lock file withFileLock is given for `file` (the audit log's): `.<name>.lck` in its directory. */
export function lockPathOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.lck`);
}
