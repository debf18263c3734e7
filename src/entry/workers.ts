/**
 * Worker threads of the CLI: each starts from dist/boot.cjs, which loads the named chunk with its
 * V8 code cache (a worker does not compile its code from scratch) and calls the named export with
 * `data`. The worker pool (pool.ts) and the built-in skills' thread (src/cli/run-env.ts) start
 * theirs here.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';

interface Boot {
  readonly load: (rel: string) => unknown;
  /** dist/boot.cjs: the program every worker thread runs. */
  readonly file: string;
}

/** The loader that started this process's bundles; undefined when the code runs from source (dist/src). */
function boot(): Boot | undefined {
  const b = (globalThis as Record<symbol, unknown>)[Symbol.for('skillctl.boot')];
  return typeof b === 'object' && b !== null ? (b as Boot) : undefined;
}

/** Whether worker threads can start: only from the bundles (the library run from source has none). */
export function canStartWorkers(): boolean {
  return boot() !== undefined;
}

export interface WorkerStart {
  /** The chunk's name in src/entry/chunks.mjs (dist/cmd/<chunk>.cjs). */
  readonly chunk: string;
  /** The chunk's export the thread runs, with `data`. */
  readonly entry: string;
  readonly data?: unknown;
  readonly resourceLimits?: ResourceLimits;
}

/** Starts a worker thread running `entry` of `chunk`, or returns undefined without the bundles. */
export function startWorker(start: WorkerStart): Worker | undefined {
  const b = boot();
  if (b === undefined) return undefined;
  // Loaded on first use: most invocations start no thread.
  const { Worker: WorkerThread } = process.getBuiltinModule('node:worker_threads');
  return new WorkerThread(b.file, {
    argv: ['--skillctl-worker'],
    workerData: { chunk: `cmd/${start.chunk}.cjs`, entry: start.entry, data: start.data },
    ...(start.resourceLimits !== undefined ? { resourceLimits: start.resourceLimits } : {}),
  });
}
