/**
 * verify-pins' share of the worker pool (src/entry/pool.ts): verifying one pin, the same in this
 * thread and in a worker. A worker gets the lock as this thread loaded and checked it, so it does
 * not parse it again, and reads bundles with blocking calls (`syncDirOps`: in a thread that does
 * nothing else, a system call is cheaper than a thread-pool round trip).
 */
import { syncDirOps } from '../../../core/bundle/index.js';
import { openLock, verifySkillPin, type PinVerification, type SkillctlLock, type SkillctlLockContext, type SkillPin } from '../../../core/pins/index.js';

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

/**
 * What a thread hands back for pin `i`. A pin that verified with nothing to report is sent as its
 * signers alone: the rest of its result is the pin's own (each digest recomputed equal to the
 * lock's), and cloning a full result per pin across threads, then back into objects, was most of
 * the serial tail of a large run. Anything else is the whole result, less what cannot cross a
 * thread (the open source) or is not needed (the manifest).
 */
export type PinReply = PinVerification | { readonly verifiedBy: readonly string[] };

function digestFields(pin: SkillPin): readonly ('manifest_digest' | 'content_digest' | 'files_digest' | 'archive_digest')[] {
  return pin.archive_digest === undefined ? ['manifest_digest', 'content_digest', 'files_digest'] : ['manifest_digest', 'content_digest', 'files_digest', 'archive_digest'];
}

function replyFor(r: PinVerification, i: number): PinReply {
  const fields = digestFields(r.pin);
  const plain =
    r.ok &&
    r.diagnostics.length === 0 &&
    r.pointer === `/skills/${i}` &&
    Object.keys(r.digests).length === fields.length &&
    fields.every((f) => r.digests[f] !== undefined && r.digests[f].actual === r.digests[f].expected && r.digests[f].expected === r.pin[f]);
  if (plain) return { verifiedBy: r.signers };
  const { source: _source, manifest: _manifest, ...rest } = r;
  void _source;
  void _manifest;
  return rest;
}

/** The result `reply` stands for, pin `i` of `lock`: exactly what the thread that verified it had. */
export function resultOf(lock: SkillctlLock, i: number, reply: PinReply): PinVerification {
  if (!('verifiedBy' in reply)) return reply;
  const pin = lock.skills[i] as SkillPin;
  const digests: Record<string, { expected: string; actual: string }> = {};
  for (const f of digestFields(pin)) digests[f] = { expected: pin[f] as string, actual: pin[f] as string };
  return { ok: true, pin, pointer: `/skills/${i}`, digests, signers: [...reply.verifiedBy], diagnostics: [] };
}

/** Verifies pin `i` of the lock `ctx` holds. */
export function verifyPinAt(ctx: SkillctlLockContext): (i: number) => Promise<PinReply> {
  const sync: SkillctlLockContext = { ...ctx, ops: syncDirOps };
  return async (i) => replyFor(await verifySkillPin(sync, ctx.lock.skills[i] as SkillPin), i);
}

/** In a worker: a context over the lock it was given, then the item function. */
export async function servePins(job: VerifyJob): Promise<(i: number) => Promise<PinReply>> {
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
