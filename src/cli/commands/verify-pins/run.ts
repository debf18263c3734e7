/**
 * `skillctl verify-pins`: the lock (a file, or stdin) opened by the core and every pin verified,
 * on every core for a large lock (../../verify-pins-threads.ts), read-only.
 */
import { join } from 'node:path';
import { syncDirOps } from '../../../core/bundle/index.js';
import { SkillctlError } from '../../../core/errors.js';
import { DEFAULT_LOCK_PATH, findProjectRoot, LOCK_MAX_BYTES, openLock, readLockBytes, verifyLock, type LockVerification } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit.js';
import { readStdin } from '../../io.js';
import { progressLine } from '../../progress.js';
import { projectPaths } from '../../project.js';
import { startPool, threadsFor, type VerifyPool } from '../../verify-pins-threads.js';

import { renderUnverifiable, renderVerification, type VerifyPinsRenderOptions } from '../../render/verify-pins.js';
import type { VerifyPinsOptions } from './options.js';

/** The entry worker threads call (see ../../verify-pins-threads.ts). */
export { workerMain } from '../../verify-pins-threads.js';

export async function run(ctx: Context, opts: VerifyPinsOptions): Promise<number> {
  const project = await projectPaths(ctx.io.cwd, opts.lock);
  let bytes: Buffer | undefined;
  let root = project.root;
  let lockFile = project.lockFile;
  if (opts.lock === '-') {
    bytes = await readStdin(ctx.io, LOCK_MAX_BYTES);
    if (bytes === undefined) throw new SkillctlError('LOCK_UNREADABLE', `stdin exceeds the ${LOCK_MAX_BYTES}-byte bound for a lock`);
    root = (await findProjectRoot(ctx.io.cwd)) ?? ctx.io.cwd;
    lockFile = '-';
  } else {
    bytes = await readLockBytes(project.lockPath, lockFile);
  }
  // Keys files are found beside the lock; a lock from stdin is taken to be the project's.
  const lockPath = opts.lock === '-' ? join(root, ...DEFAULT_LOCK_PATH.split('/')) : project.lockPath;
  // SKILLCTL_THREADS caps the threads (1: none), for machines shared with other jobs.
  const cap = Number(ctx.io.env.SKILLCTL_THREADS ?? 4);
  const threads = threadsFor(Number.isInteger(cap) && cap > 0 ? cap : 4);
  // Workers (for a large lock) boot while this thread parses the lock.
  const pool = startPool(lockPath, bytes.length, threads);
  try {
    return await verifyWith(ctx, pool, lockPath, lockFile, bytes, root, opts);
  } finally {
    pool.close();
  }
}

async function verifyWith(ctx: Context, pool: VerifyPool, lockPath: string, lockFile: string, bytes: Buffer, root: string, opts: VerifyPinsOptions): Promise<number> {
  const opened = await openLock(lockPath, {
    label: lockFile,
    bytes,
    root,
    ...(opts.minSigners !== undefined ? { minSigners: opts.minSigners } : {}),
    // A batch job with nothing else to do meanwhile: blocking calls cost a few microseconds where
    // thread-pool round trips cost tens (see src/core/bundle/dir-ops.ts).
    ops: syncDirOps,
  });
  const view: VerifyPinsRenderOptions = { json: ctx.opts.json, style: ctx.style, quiet: ctx.opts.quiet, lockFile };
  if (opened.context === undefined) {
    ctx.out(renderUnverifiable(opened.diagnostics, view));
    return exitCodeFor(opened);
  }
  const p = progressLine(ctx, 'verifying pins');
  let result: LockVerification;
  try {
    result = await verifyLock(opened.context, { onProgress: p.tick, verifySkills: pool.verifySkills });
  } finally {
    p.end();
  }
  const text = renderVerification(result, view);
  if (text !== '') ctx.out(text);
  return exitCodeFor(result);
}
