/**
 * The project a command works in: the lock it reads or writes and the root its sources are
 * relative to (DESIGN.md, "Where things are found"), and the process facts the lock-file writer
 * needs, which the core takes as parameters.
 */
import { hostname } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { searchProjectRoot, type FileLockOptions } from '../core/fs/index.js';
import { DEFAULT_LOCK_PATH, lockRoot } from '../core/pins/index.js';
import type { Context } from './context.js';
import { renderGrouped } from './render/diagnostics.js';

export interface ProjectPaths {
  /** Absolute path of the lock file. */
  readonly lockPath: string;
  /** How to name the lock in messages: as given, or relative to the working directory. */
  readonly lockFile: string;
  readonly root: string;
  /** PROJECT_ROOT_FOREIGN: a nearer folder refused for its owner (show with noteRootRefusals). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Shows a project root search's refusals (PROJECT_ROOT_FOREIGN warnings) on stderr. */
export function noteRootRefusals(ctx: Context, diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.length > 0) ctx.note(renderGrouped(diagnostics, { style: ctx.style }));
}

/** The project root from the working directory, its refusals shown; undefined when there is none. */
export async function projectRootOf(ctx: Context): Promise<string | undefined> {
  const found = await searchProjectRoot(ctx.io.cwd);
  noteRootRefusals(ctx, found.diagnostics);
  return found.root;
}

/** `--lock FILE` (relative to cwd), else pins/skills.lock.json in the project root (or cwd). */
export async function projectPaths(cwd: string, lock: string | undefined): Promise<ProjectPaths> {
  if (lock !== undefined && lock !== '-') {
    const lockPath = isAbsolute(lock) ? lock : join(cwd, lock);
    return { lockPath, lockFile: lock, root: lockRoot(lockPath), diagnostics: [] };
  }
  const found = await searchProjectRoot(cwd);
  const root = found.root ?? cwd;
  const lockPath = join(root, ...DEFAULT_LOCK_PATH.split('/'));
  const lockFile = root === cwd ? DEFAULT_LOCK_PATH : lockPath;
  return { lockPath, lockFile, root, diagnostics: found.diagnostics };
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
