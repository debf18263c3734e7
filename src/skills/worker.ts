/**
 * The program of a built-in's worker thread (src/core/run/runtimes/builtin-worker.ts starts it):
 * it takes one job from the run and serves it with the built-in skills of this skillctl.
 */
import { parentPort } from 'node:worker_threads';
import { serveBuiltinJob, type BuiltinJob } from '../core/run/index.js';
import { BUILTINS } from './index.js';

export function workerMain(): void {
  const port = parentPort;
  if (port === null) throw new Error('the built-in worker runs only in a worker thread');
  port.once('message', (job: BuiltinJob) => void serveBuiltinJob(job, async (id) => BUILTINS.get(id), port));
}
