/**
 * verify-pins' share of the worker pool (src/entry/pool.ts): verifying one pin, the same in this
 * thread and in a worker. A worker gets the lock as this thread loaded and checked it, so it does
 * not parse it again, and reads bundles with blocking calls (`syncDirOps`: in a thread that does
 * nothing else, a system call is cheaper than a thread-pool round trip).
 */
import { syncDirOps } from '../../../core/bundle/index.js';
import { openLock, verifySkillPin, type PinVerification, type SkillctlLock, type SkillctlLockContext, type SkillPin } from '../../../core/pins/index.js';

/** Locks this large are likely to hold enough pins for the pool: its workers start before the lock is parsed. */
export const EARLY_START_BYTES = 32 * 1024;

/** The job every thread gets. */
export interface VerifyJob {
  readonly lockPath: string;
  readonly lockFile: string;
  readonly root: string;
  readonly lock: SkillctlLock;
  readonly minSigners: number;
}

export function verifyJob(lockPath: string, ctx: SkillctlLockContext): VerifyJob {
  return { lockPath, lockFile: ctx.lockFile, root: ctx.root, lock: ctx.lock, minSigners: ctx.minSigners };
}

/** A result without the parts that cannot cross a thread (the open source) or are not needed. */
export function portable(r: PinVerification): PinVerification {
  const { source: _source, manifest: _manifest, ...rest } = r;
  void _source;
  void _manifest;
  return rest;
}

/** Verifies pin `i` of the lock `ctx` holds. */
export function verifyPinAt(ctx: SkillctlLockContext): (i: number) => Promise<PinVerification> {
  const sync: SkillctlLockContext = { ...ctx, ops: syncDirOps };
  return async (i) => portable(await verifySkillPin(sync, ctx.lock.skills[i] as SkillPin));
}

/** In a worker: a context over the lock it was given, then the item function. */
export async function servePins(job: VerifyJob): Promise<(i: number) => Promise<PinVerification>> {
  const opened = await openLock(job.lockPath, {
    label: job.lockFile,
    loaded: { format: 'skillctl', lock: job.lock },
    root: job.root,
    minSigners: job.minSigners,
    ops: syncDirOps,
  });
  if (opened.context?.format !== 'skillctl') throw new Error('the lock could not be opened in a worker thread');
  return verifyPinAt(opened.context);
}
