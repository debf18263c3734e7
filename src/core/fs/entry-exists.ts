import { lstat } from 'node:fs/promises';

/** True when a directory entry exists at `path`: a symbolic link counts, even a broken one. */
export async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
