/**
 * A worker thread started before anyone asks for it. A thread is a fresh V8 isolate with its own
 * Node.js bootstrap: 40 to 80 ms here, longer than everything a built-in's run does before it needs
 * one (resolve, authorise, prepare: about 50 ms of this thread's time). Started as the run begins,
 * it boots while this thread works (docs/performance.md, "Running skills").
 *
 * Heap limits are fixed when a thread starts, so the spare is started with the limits its caller
 * expects and handed over only for exactly those; for any other limits it is stopped, and the
 * caller starts a thread of its own. A guess that misses costs one thread start, never a limit.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker, type WorkerStart } from './workers.js';

export interface SpareWorker {
  /**
   * The thread, once, if it was started with exactly `limits` and is still alive; otherwise the
   * spare is stopped and the answer is undefined.
   */
  take(limits: ResourceLimits): Worker | undefined;
  /** Stops the thread unless it was taken. */
  stop(): void;
}

const LIMIT_KEYS = ['maxOldGenerationSizeMb', 'maxYoungGenerationSizeMb', 'codeRangeSizeMb', 'stackSizeMb'] as const;

function sameLimits(a: ResourceLimits, b: ResourceLimits): boolean {
  return LIMIT_KEYS.every((k) => a[k] === b[k]);
}

/** Starts the spare, or returns undefined where no worker thread can start (no bundles). */
export function startSpareWorker(start: WorkerStart & { readonly resourceLimits: ResourceLimits }): SpareWorker | undefined {
  const worker = startWorker(start);
  return worker === undefined ? undefined : spareOf(worker, start.resourceLimits);
}

/** A thread its caller started (a wasm module's, which runs from its own text) kept as a spare for `resourceLimits`. */
export function spareOf(worker: Worker, resourceLimits: ResourceLimits): SpareWorker {
  // Waiting, it must not keep the process alive: a run refused before it needs a thread ends at once.
  worker.unref();
  let state: 'waiting' | 'taken' | 'gone' = 'waiting';
  // A thread that failed or ended while waiting is not handed over: its events have been and gone.
  const gone = (): void => {
    if (state === 'waiting') state = 'gone';
  };
  worker.once('error', gone).once('exit', gone);
  const stop = (): void => {
    if (state !== 'waiting') return;
    state = 'gone';
    void worker.terminate();
  };
  return {
    take(limits) {
      if (state !== 'waiting' || !sameLimits(limits, resourceLimits)) {
        stop();
        return undefined;
      }
      state = 'taken';
      worker.off('error', gone).off('exit', gone);
      worker.ref();
      return worker;
    },
    stop,
  };
}
