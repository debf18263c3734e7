/**
 * The project's write lock for pulls (ORIGINS_LOCK), as every command that reads or writes the
 * origin records and the folders they name takes it: pull (collision check, renames, records) and
 * pin (records read, folders hashed, lock written). Whoever takes it first puts right a pull that
 * died holding it (pull-journal.ts), so nothing under the lock ever sees a half-placed pull, then
 * removes what dead processes left in `.skillctl/` and the scratch folders they noted there
 * (leftovers.ts).
 */
import { join } from 'node:path';
import { asOutputWrite, makeDirs, withFileLock, type FileLockOptions } from '../fs/index.js';
import { ORIGINS_LOCK } from './origins.js';
import { sweepLeftovers } from './leftovers.js';
import { recoverPull, type Recovered } from './pull-journal.js';

/**
 * Runs `fn` holding the write lock for pulls of `root`, once a pull that died holding it is
 * finished or undone (`recovered` says which, absent when there was none) and dead processes'
 * leftovers are swept. Waits as the lock
 * options say (LOCK_BUSY when it is held too long).
 */
export async function withPullLock<T>(root: string, fileLock: FileLockOptions, fn: (recovered: Recovered | undefined) => Promise<T>): Promise<T> {
  await asOutputWrite('.skillctl', () => makeDirs(join(root, '.skillctl')));
  return withFileLock(join(root, ...ORIGINS_LOCK.split('/')), fileLock, async () => {
    // The journal first: the scratch folders of the pull it describes are its to move or remove.
    const recovered = await recoverPull(root);
    await sweepLeftovers(root, fileLock);
    return fn(recovered);
  });
}
