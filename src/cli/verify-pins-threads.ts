/**
 * Verifying a large lock on every core. Worker threads are started as soon as the lock's bytes are
 * read (so they boot while this thread parses the lock); then this thread and every worker take
 * the next unverified pin from one shared counter (`Atomics.add` on a SharedArrayBuffer), so a
 * thread that started later or got heavier bundles simply takes fewer. Each thread reads bundles
 * with blocking calls (`syncDirOps`: in a thread that does nothing else, a system call is cheaper
 * than a thread-pool round trip). Results come back in lock order.
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
/** Locks this large are likely to hold that many pins: start workers before parsing them. */
const EARLY_START_BYTES = 32 * 1024;
/** Pins in flight per thread, so one waiting for its signatures (on the thread pool) does not idle it. */
const LANES = 8;

export interface VerifyWorkerRequest {
  readonly kind: 'skillctl.verify-pins';
  readonly lockPath: string;
  readonly lockFile: string;
  readonly root: string;
  /** The lock as this thread loaded and checked it: workers do not parse it again. */
  readonly lock: SkillctlLock;
  readonly minSigners: number;
  /** One Int32: the index of the next pin to verify, shared by every thread. */
  readonly next: SharedArrayBuffer;
}

/** A result without the parts that cannot cross a thread (the open source) or are not needed. */
export function portable(r: PinVerification): PinVerification {
  const { source: _source, manifest: _manifest, ...rest } = r;
  void _source;
  void _manifest;
  return rest;
}

/** Verifies pins taken from the shared counter until none is left; returns [index, result] pairs. */
async function drain(ctx: SkillctlLockContext, next: Int32Array, tick: () => void): Promise<[number, PinVerification][]> {
  const sync: SkillctlLockContext = { ...ctx, ops: syncDirOps };
  const out: [number, PinVerification][] = [];
  const pins = ctx.lock.skills;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = Atomics.add(next, 0, 1); i < pins.length; i = Atomics.add(next, 0, 1)) {
        out.push([i, portable(await verifySkillPin(sync, pins[i] as SkillPin))]);
        tick();
      }
    }),
  );
  return out;
}

/** Runs in a worker: a context over the lock it was given, then its part of the pins. */
export async function workerMain(req: VerifyWorkerRequest): Promise<[number, PinVerification][]> {
  const opened = await openLock(req.lockPath, {
    label: req.lockFile,
    loaded: { format: 'skillctl', lock: req.lock },
    root: req.root,
    minSigners: req.minSigners,
    ops: syncDirOps,
  });
  if (opened.context?.format !== 'skillctl') throw new Error('the lock could not be opened in a worker thread');
  return drain(opened.context, new Int32Array(req.next), () => undefined);
}

/** The worker's program: boot (code caches), load the verify-pins bundle, wait for its request. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(require('node:path').join(workerData.dist, 'boot.cjs'));
const chunk = globalThis[Symbol.for('skillctl.loadChunk')]('cmd/verify-pins.cjs');
parentPort.once('message', (request) => {
  chunk.workerMain(request).then(
    (results) => parentPort.postMessage({ ok: true, results }),
    (err) => parentPort.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});`;

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

interface Started {
  readonly worker: Worker;
  readonly done: Promise<[number, PinVerification][]>;
}

function start(dist: string): { worker: Worker; run: (request: VerifyWorkerRequest) => Promise<[number, PinVerification][]> } {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { dist } });
  const result = new Promise<[number, PinVerification][]>((resolvePromise, reject) => {
    worker.once('message', (m: { ok: boolean; results?: [number, PinVerification][]; error?: string }) => {
      if (m.ok && m.results !== undefined) resolvePromise(m.results);
      else reject(new Error(m.error ?? 'verify-pins worker failed'));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
    worker,
    run: (request) => {
      worker.postMessage(request);
      return result;
    },
  };
}

export interface VerifyPool {
  /** The `verifySkills` of verify-pins. */
  readonly verifySkills: (ctx: SkillctlLockContext, tick: () => void) => Promise<readonly PinVerification[]>;
  /** Stops workers that were started but not used. */
  close(): void;
}

/**
 * A pool of `threads` threads (this one included) for the lock at `lockPath` whose bytes were
 * read: workers are started now when the lock is large enough to be worth it.
 */
export function startPool(lockPath: string, lockBytes: number, threads: number): VerifyPool {
  const dist = distDir();
  let workers = dist !== undefined && threads > 1 && lockBytes >= EARLY_START_BYTES ? Array.from({ length: threads - 1 }, () => start(dist)) : [];
  const close = (): void => {
    for (const w of workers) void w.worker.terminate();
    workers = [];
  };
  const verifySkills = async (ctx: SkillctlLockContext, tick: () => void): Promise<readonly PinVerification[]> => {
    const pins = ctx.lock.skills;
    if (pins.length < PARALLEL_THRESHOLD || threads < 2 || dist === undefined) {
      close();
      return mapLimited(pins, 16, async (p) => {
        const r = await verifySkillPin(ctx, p);
        tick();
        return r;
      });
    }
    if (workers.length === 0) workers = Array.from({ length: threads - 1 }, () => start(dist));
    const next = new SharedArrayBuffer(4);
    const request: VerifyWorkerRequest = { kind: 'skillctl.verify-pins', lockPath, lockFile: ctx.lockFile, root: ctx.root, lock: ctx.lock, minSigners: ctx.minSigners, next };
    const running: Started[] = workers.map((w) => ({ worker: w.worker, done: w.run(request) }));
    workers = [];
    const mine = await drain(ctx, new Int32Array(next), tick);
    const parts = [mine, ...(await Promise.all(running.map((r) => r.done.then((res) => (res.forEach(() => tick()), res)))))];
    const out: PinVerification[] = new Array(pins.length);
    for (const part of parts) for (const [i, r] of part) out[i] = r;
    return out;
  };
  return { verifySkills, close };
}
