/**
 * Counts the worker threads a skillctl process starts: a preload (given through NODE_OPTIONS)
 * wraps worker_threads.Worker and appends a line to a file per thread started. For tests that a
 * command really shares its work out, which its output alone cannot show.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PRELOAD = `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const fs = require('node:fs');
  const Base = wt.Worker;
  wt.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      fs.appendFileSync(process.env.SKILLCTL_TEST_WORKERS, 'worker\\n');
    }
  };
}
`;

export interface WorkerTrace {
  /** Environment for the skillctl process whose threads are counted. */
  readonly env: Record<string, string>;
  /** Worker threads started so far; resets the count. */
  started(): number;
}

export function workerTrace(dir: string): WorkerTrace {
  const preload = join(dir, 'worker-trace.cjs');
  const log = join(dir, 'workers.log');
  writeFileSync(preload, PRELOAD);
  return {
    env: { NODE_OPTIONS: `--require ${preload}`, SKILLCTL_TEST_WORKERS: log },
    started() {
      if (!existsSync(log)) return 0;
      const n = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
      writeFileSync(log, '');
      return n;
    },
  };
}
