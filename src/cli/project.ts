/**
 * The project a command works in: the lock it reads or writes and the root its sources are
 * relative to (DESIGN.md, "Where things are found"), and the process facts the lock-file writer
 * needs, which the core takes as parameters.
 */
import { hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { FileLockOptions } from '../core/fs/index.js';
import { DEFAULT_LOCK_PATH, findProjectRoot, lockRoot } from '../core/pins/index.js';

export interface ProjectPaths {
  /** Absolute path of the lock file. */
  readonly lockPath: string;
  /** How to name the lock in messages: as given, or relative to the working directory. */
  readonly lockFile: string;
  readonly root: string;
}

/** `--lock FILE` (relative to cwd), else pins/skills.lock.json in the project root (or cwd). */
export async function projectPaths(cwd: string, lock: string | undefined): Promise<ProjectPaths> {
  if (lock !== undefined && lock !== '-') {
    const lockPath = isAbsolute(lock) ? lock : join(cwd, lock);
    return { lockPath, lockFile: lock, root: lockRoot(lockPath) };
  }
  const root = (await findProjectRoot(cwd)) ?? cwd;
  const lockPath = join(root, ...DEFAULT_LOCK_PATH.split('/'));
  const lockFile = root === cwd ? DEFAULT_LOCK_PATH : lockPath;
  return { lockPath, lockFile, root };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits up to 30 s for another writer; a lock file older than 10 min is stale. `brief`: the
 * holder keeps it for a moment only (an audit append), so a waiter looks again after a few
 * milliseconds rather than backing off.
 */
export function processFileLock(brief = false): FileLockOptions {
  return {
    now: () => Date.now(),
    pid: process.pid,
    hostname: hostname(),
    isAlive,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, brief ? 1 + Math.floor(Math.random() * 4) : ms)),
    timeoutMs: 30_000,
    staleMs: 10 * 60_000,
  };
}
