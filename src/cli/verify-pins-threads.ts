/**
 * Verifying a large lock on every core: the skill pins are dealt round-robin to this thread and to
 * worker threads, each of which gets the lock as this thread loaded it and reads bundles with
 * blocking calls (`syncDirOps`: in a thread that does nothing else, a system call is cheaper than
 * a thread-pool round trip). Results come back in lock order.
 *
 * A worker starts through dist/boot.cjs and loads this command's own bundle with its V8 code cache
 * (see src/boot.cjs), so it does not compile the verifier from scratch.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { syncDirOps } from '../core/bundle/index.js';
import { mapLimited } from '../core/map-limited.js';
import { openLock, verifySkillPin, type PinVerification, type SkillctlLock, type SkillctlLockContext, type SkillPin } from '../core/pins/index.js';

/** Below this many pins a worker costs more to start than it saves. */
const PARALLEL_THRESHOLD = 64;

export interface VerifyWorkerRequest {
  readonly kind: 'skillctl.verify-pins';
  readonly lockPath: string;
  readonly lockFile: string;
  readonly root: string;
  /** The lock as this thread loaded and checked it: workers do not parse it again. */
  readonly lock: SkillctlLock;
  readonly minSigners: number;
  readonly indices: readonly number[];
}

/** A result without the parts that cannot cross a thread (the open source) or are not needed. */
export function portable(r: PinVerification): PinVerification {
  const { source: _source, manifest: _manifest, ...rest } = r;
  void _source;
  void _manifest;
  return rest;
}

/**
 * Verifies the pins at `indices` of the lock with blocking reads. A few pins are in flight at once
 * so that one waiting for its signatures (checked on the thread pool) does not idle the thread.
 */
export async function verifyShare(ctx: SkillctlLockContext, indices: readonly number[], tick: () => void): Promise<PinVerification[]> {
  const sync: SkillctlLockContext = { ...ctx, ops: syncDirOps };
  return mapLimited(indices, 8, async (i) => {
    const r = portable(await verifySkillPin(sync, ctx.lock.skills[i] as SkillPin));
    tick();
    return r;
  });
}

/** Runs in a worker: opens the lock from the bytes it was given and verifies its share. */
export async function workerMain(req: VerifyWorkerRequest): Promise<PinVerification[]> {
  const opened = await openLock(req.lockPath, {
    label: req.lockFile,
    loaded: { format: 'skillctl', lock: req.lock },
    root: req.root,
    minSigners: req.minSigners,
    ops: syncDirOps,
  });
  if (opened.context?.format !== 'skillctl') throw new Error('the lock changed while it was being verified');
  return verifyShare(opened.context, req.indices, () => undefined);
}

/** The worker's program: boot (code caches), load the verify-pins bundle, run its share. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(require('node:path').join(workerData.dist, 'boot.cjs'));
const chunk = globalThis[Symbol.for('skillctl.loadChunk')]('cmd/verify-pins.cjs');
chunk.workerMain(workerData.request).then(
  (results) => parentPort.postMessage({ ok: true, results }),
  (err) => parentPort.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
);`;

function inWorker(dist: string, request: VerifyWorkerRequest): Promise<PinVerification[]> {
  return new Promise((resolvePromise, reject) => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { dist, request } });
    w.once('message', (m: { ok: boolean; results?: PinVerification[]; error?: string }) => {
      if (m.ok && m.results !== undefined) resolvePromise(m.results);
      else reject(new Error(m.error ?? 'verify-pins worker failed'));
      void w.terminate();
    });
    w.once('error', reject);
  });
}

function distDir(): string | undefined {
  const dist = (globalThis as Record<symbol, unknown>)[Symbol.for('skillctl.distDir')];
  return typeof dist === 'string' ? dist : undefined;
}

/**
 * Threads to verify with: the cores, capped by SKILLCTL_THREADS (`cap`); 1 when worker threads
 * cannot start (no built dist/ directory, as when the library runs from source).
 */
export function threadsFor(cap: number): number {
  return distDir() === undefined ? 1 : Math.max(1, Math.min(availableParallelism(), cap));
}

/** The `verifySkills` of verify-pins over `threads` threads; every thread verifies the lock this one read. */
export function parallelVerifier(lockPath: string, threads: number) {
  return async (ctx: SkillctlLockContext, tick: () => void): Promise<readonly PinVerification[]> => {
    const pins = ctx.lock.skills;
    const dist = distDir();
    if (pins.length < PARALLEL_THRESHOLD || threads < 2 || dist === undefined) {
      return mapLimited(pins, 16, async (p) => {
        const r = await verifySkillPin(ctx, p);
        tick();
        return r;
      });
    }
    const shares = Array.from({ length: threads }, (_, k) => pins.map((_, i) => i).filter((i) => i % threads === k));
    const parts = await Promise.all(
      shares.map((indices, k) =>
        k === 0
          ? verifyShare(ctx, indices, tick)
          : inWorker(dist, { kind: 'skillctl.verify-pins', lockPath, lockFile: ctx.lockFile, root: ctx.root, lock: ctx.lock, minSigners: ctx.minSigners, indices }).then((r) => {
              for (let n = 0; n < r.length; n++) tick();
              return r;
            }),
      ),
    );
    return pins.map((_, i) => (parts[i % threads] as PinVerification[])[Math.floor(i / threads)] as PinVerification);
  };
}
