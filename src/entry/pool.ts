/**
 * The CLI's one worker pool: a large `validate` or `verify-pins` run shares its items out over this
 * thread and worker threads, one per core. Every thread takes the next item from one shared
 * counter (`Atomics.add` on a SharedArrayBuffer), so a thread that started later or got heavier
 * items simply takes fewer; results come back in item order, whichever thread made them.
 *
 * A worker runs the command's own chunk (workers.ts), whose export `poolWorker` (made by
 * `poolWorker` below) turns the job's payload into the function that handles one item; this
 * thread handles its items with the function the command passes in. Both must give the same
 * result for an item: tests compare the output with and without threads.
 */
import type { Worker } from 'node:worker_threads';
import type { Code } from '../core/diagnostics.js';
import { isSkillctlError, SkillctlError } from '../core/errors.js';
import { spareOf, type SpareWorker } from './spare-worker.js';
import { canStartWorkers, startWorker } from './workers.js';

/** A kind of job: the chunk (src/entry/chunks.mjs) whose `poolWorker` export serves it. */
export type PoolKind = 'validate' | 'verify-pins';

interface KindSpec {
  /** Below this many items a worker costs more to start than it saves. */
  readonly minItems: number;
  /** Items in flight per thread. */
  readonly lanes: number;
}

const KINDS = {
  // A manifest is cheap to check (about 0.7 ms): a worker pays for its start only from a few hundred.
  // Reads go through the callback API, so a thread keeps 16 in flight to overlap them.
  validate: { minItems: 200, lanes: 16 },
  // A pin means hashing a bundle: worth a thread from a few dozen. Reads are blocking calls
  // (src/core/bundle/dir-ops.ts), so lanes only interleave work; a few bound the memory held.
  'verify-pins': { minItems: 64, lanes: 8 },
} as const satisfies Record<PoolKind, KindSpec>;

type Env = Readonly<Record<string, string | undefined>>;

/** Locks this large are likely to hold enough pins for the pool: verify-pins starts its workers before reading one. */
export const EARLY_LOCK_BYTES = 32 * 1024;

/**
 * Threads to use: the cores, capped by SKILLCTL_THREADS (default 4; 1: this thread only), for
 * machines shared with other jobs. node:os loads only here, for a run large enough to ask.
 */
function threadsFor(env: Env): number {
  if (!canStartWorkers()) return 1;
  const cap = Number(env.SKILLCTL_THREADS ?? 4);
  const { availableParallelism } = process.getBuiltinModule('node:os');
  return Math.max(1, Math.min(availableParallelism(), Number.isInteger(cap) && cap > 0 ? cap : 4));
}

/** What a worker is sent: the payload, the number of items, and the shared counter. */
interface Job {
  readonly payload: unknown;
  readonly count: number;
  readonly next: SharedArrayBuffer;
  readonly lanes: number;
}

/**
 * A worker's answer. A SkillctlError crosses as its code and hint too, so that an item that cannot
 * be read ends the command with the same code and status whichever thread took it.
 */
type Reply<R> = { readonly ok: true; readonly results: [number, R][] } | { readonly ok: false; readonly error: string; readonly code?: Code; readonly hint?: string };

/** What a worker sends for an error: a SkillctlError keeps its code and hint. */
export function replyOf(err: unknown): Reply<never> {
  if (isSkillctlError(err)) return { ok: false, error: err.message, code: err.code, ...(err.hint !== undefined ? { hint: err.hint } : {}) };
  return { ok: false, error: err instanceof Error ? err.message : String(err) };
}

/** The error a worker's answer stands for, in this thread. */
export function errorOf(m: { readonly error: string; readonly code?: Code; readonly hint?: string }): Error {
  return m.code !== undefined ? new SkillctlError(m.code, m.error, m.hint !== undefined ? { hint: m.hint } : {}) : new Error(m.error);
}

/** Handles items taken from the shared counter until none is left; returns [index, result] pairs. */
async function drain<R>(item: (i: number) => Promise<R>, job: Omit<Job, 'payload'>, tick: () => void): Promise<[number, R][]> {
  const next = new Int32Array(job.next);
  const out: [number, R][] = [];
  await Promise.all(
    Array.from({ length: job.lanes }, async () => {
      for (let i = Atomics.add(next, 0, 1); i < job.count; i = Atomics.add(next, 0, 1)) {
        out.push([i, await item(i)]);
        tick();
      }
    }),
  );
  return out;
}

/**
 * The worker side, exported by a chunk as `poolWorker`: `serve` turns the job's payload into the
 * function for one item (what it returns must survive a structured clone).
 */
export function poolWorker<P, R>(serve: (payload: P) => Promise<(i: number) => Promise<R>>): () => void {
  return () => {
    const { parentPort } = process.getBuiltinModule('node:worker_threads');
    parentPort?.once('message', (job: Job) => {
      const reply = (m: Reply<R>): void => parentPort.postMessage(m);
      serve(job.payload as P)
        .then((item) => drain(item, job, () => undefined))
        .then(
          (results) => reply({ ok: true, results }),
          (err: unknown) => reply(replyOf(err)),
        );
    });
  };
}

interface Started<R> {
  readonly worker: Worker;
  /** The worker's results; rejects if it fails or exits without replying. */
  readonly done: Promise<[number, R][]>;
}

function start<R>(kind: PoolKind): Started<R> | undefined {
  const worker = startWorker({ chunk: kind, entry: 'poolWorker' });
  return worker === undefined ? undefined : watch<R>(kind, worker);
}

function watch<R>(kind: PoolKind, worker: Worker): Started<R> {
  const done = new Promise<[number, R][]>((resolvePromise, reject) => {
    worker.once('message', (m: Reply<R>) => {
      if (m.ok) resolvePromise(m.results);
      else reject(errorOf(m));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`a ${kind} worker thread exited (${code}) without its results`)));
  });
  // A worker started early may fail before anyone waits for it; the failure is reported by `run`.
  done.catch(() => undefined);
  return { worker, done };
}

/**
 * Workers started before the command's own bundle loaded (src/entry/early-pool.ts), kept on the
 * global object because that bundle and the command's are separate programs of one thread.
 */
const EARLY = Symbol.for('skillctl.pool.early');

interface Early {
  readonly kind: PoolKind;
  readonly spares: readonly SpareWorker[];
}

/**
 * Starts the workers of a pool of `kind` now, before anything asks for them, to boot while this
 * thread loads the CLI. Until `openPool` takes them they keep nothing alive: a command that ends
 * without a pool (help, a usage error, a small lock) ends at once, and they with it.
 */
export function startEarlyWorkers(kind: PoolKind, env: Env): void {
  const spares: SpareWorker[] = [];
  for (let i = 1; i < threadsFor(env); i++) {
    let worker: Worker | undefined;
    try {
      worker = startWorker({ chunk: kind, entry: 'poolWorker' });
    } catch {
      // Only a head start: a thread that cannot start here is started, or reported, by the pool.
      break;
    }
    if (worker !== undefined) spares.push(spareOf(worker, {}));
  }
  (globalThis as Record<symbol, unknown>)[EARLY] = { kind, spares } satisfies Early;
}

/** The early workers for `kind` still alive, once; early workers of another kind are stopped. */
function takeEarly<R>(kind: PoolKind): Started<R>[] {
  const holder = globalThis as Record<symbol, unknown>;
  const early = holder[EARLY] as Early | undefined;
  if (early === undefined) return [];
  holder[EARLY] = undefined;
  const out: Started<R>[] = [];
  for (const spare of early.spares) {
    const worker = early.kind === kind ? spare.take({}) : (spare.stop(), undefined);
    if (worker !== undefined) out.push(watch<R>(kind, worker));
  }
  return out;
}

export interface Pool<R> {
  /**
   * Handles items 0..count-1 and returns the results in item order: this thread with `here`,
   * workers with the chunk's `poolWorker` given `payload`. `tick` is called once per item.
   */
  run(count: number, here: (i: number) => Promise<R>, payload: unknown, tick?: () => void): Promise<R[]>;
  /** Stops workers that were started but not used. */
  close(): void;
}

/**
 * A pool for jobs of `kind`: this thread and, for a job large enough, a worker per further core
 * (`env`: SKILLCTL_THREADS). It takes the workers started early for it (startEarlyWorkers); with
 * `startNow` and none started early, workers start at once, to boot while this thread prepares the
 * job (verify-pins parsing a large lock).
 */
export function openPool<R>(kind: PoolKind, env: Env, opts: { readonly startNow?: boolean } = {}): Pool<R> {
  const spec: KindSpec = KINDS[kind];
  let threads: number | undefined;
  const spawn = (): Started<R>[] => {
    threads ??= threadsFor(env);
    return Array.from({ length: threads - 1 }, () => start<R>(kind)).filter((w): w is Started<R> => w !== undefined);
  };
  let idle: Started<R>[] = takeEarly<R>(kind);
  if (idle.length === 0 && opts.startNow === true) idle = spawn();
  const close = (): void => {
    for (const w of idle) void w.worker.terminate();
    idle = [];
  };
  const run = async (count: number, here: (i: number) => Promise<R>, payload: unknown, tick: () => void = () => undefined): Promise<R[]> => {
    const counter = { next: new SharedArrayBuffer(4), count, lanes: spec.lanes };
    if (count < spec.minItems) close();
    else if (idle.length === 0) idle = spawn();
    const running = idle;
    idle = [];
    const job: Job = { ...counter, payload };
    for (const w of running) w.worker.postMessage(job);
    try {
      const mine = await drain(here, counter, tick);
      const theirs = await Promise.all(running.map((w) => w.done.then((res) => (res.forEach(() => tick()), res))));
      const out = new Array<R>(count);
      for (const part of [mine, ...theirs]) for (const [i, r] of part) out[i] = r;
      return out;
    } finally {
      for (const w of running) void w.worker.terminate();
    }
  };
  return { run, close };
}
