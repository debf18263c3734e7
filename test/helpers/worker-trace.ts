/**
 * Counts the worker threads a skillctl process starts: a preload (given through NODE_OPTIONS)
 * wraps worker_threads.Worker and appends a line to a file per thread started, saying whether the
 * start-up wing started it before the CLI loaded (its stack runs through one of the early
 * bundles). For tests that a command really shares its work out, or starts a thread early, which
 * its output alone cannot show.
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
      const early = /[\\/\\\\](?:builtin-early|wasm-early|early-pool)\\.cjs:/.test(new Error().stack);
      fs.appendFileSync(process.env.SKILLCTL_TEST_WORKERS, (early ? 'early' : 'late') + '\\n');
    }
  };
}
`;

export interface WorkerTrace {
  /** Environment for the skillctl process whose threads are counted. */
  readonly env: Record<string, string>;
  /** Worker threads started so far; resets the count. */
  started(): number;
  /** Each thread started so far, in order: `early` (by the start-up wing) or `late`; resets the count. */
  origins(): ('early' | 'late')[];
}

export function workerTrace(dir: string): WorkerTrace {
  const preload = join(dir, 'worker-trace.cjs');
  const log = join(dir, 'workers.log');
  writeFileSync(preload, PRELOAD);
  return {
    env: { NODE_OPTIONS: `--require ${preload}`, SKILLCTL_TEST_WORKERS: log },
    started() {
      return this.origins().length;
    },
    origins() {
      if (!existsSync(log)) return [];
      const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean) as ('early' | 'late')[];
      writeFileSync(log, '');
      return lines;
    },
  };
}
