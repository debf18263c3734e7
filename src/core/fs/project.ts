import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { entryExists as exists } from './entry-exists.js';

/** The file whose presence makes a directory a skillctl project root. */
export const LOCK_MARKER = 'pins/skills.lock.json';

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The project root: the nearest ancestor of `cwd` (itself included) holding
 * pins/skills.lock.json, else the top of the git work tree `cwd` is in (the nearest ancestor
 * holding `.git`); undefined when there is neither. A root decides which policy is in force, so a
 * policy file alone never makes one: a skill that could write a directory could otherwise plant
 * a policy there and have every run started in it obey that policy (docs/security.md).
 */
export async function findProjectRoot(cwd: string): Promise<string | undefined> {
  let gitTop: string | undefined;
  for (let dir = cwd; ; ) {
    if (await isFile(join(dir, LOCK_MARKER))) return dir;
    if (gitTop === undefined && (await exists(join(dir, '.git')))) gitTop = dir;
    const parent = dirname(dir);
    if (parent === dir) return gitTop;
    dir = parent;
  }
}
