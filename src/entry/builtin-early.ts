/**
 * `skillctl run <built-in id>`: the skill's thread started by dist/boot.cjs before the CLI loads. A
 * built-in runs in a worker thread so that its limits can stop it (src/core/run/runtimes/
 * builtin-worker.ts), and a thread is a fresh V8 isolate with its own Node.js bootstrap (30 to
 * 50 ms here): started as the run begins (src/cli/run-env.ts, after the CLI, the run's chunk and
 * the policy) the run waited for it; started here it boots while all of that loads
 * (docs/performance.md, "Running skills").
 *
 * It is only a guess, as the run's own spare is: the heap limits from the shipped manifest
 * (dist/default-bundles.json, the build's snapshot of the default bundle) under the default
 * policy, made before the policy in force, the project's lock or anything else is known. The run
 * takes this thread only if the limits it works out from the validated manifest and the policy
 * in force are exactly these (run-env.ts); otherwise it is stopped. The thread runs nothing but
 * the job the run posts to it.
 */
import { readFileSync } from 'node:fs';
import { guessThreadLimits } from '../core/run/thread-limits.js';
import type { BuiltinRunTarget } from './run-argv.js';
import { earlySlot } from './early-slot.js';
import { spareOf, type SpareWorker } from './spare-worker.js';
import { startWorker } from './workers.js';

/** Where the thread waits for the run: this bundle and the run's are loaded apart. */
const slot = earlySlot<EarlyBuiltinThread>('skillctl.builtin-early');

/** The thread started here, and what it was started for. */
export interface EarlyBuiltinThread {
  readonly spare: SpareWorker;
  readonly skillId: string;
  readonly entrypoint: string | undefined;
}

/** The shipped manifest of built-in `skillId`, from the build's snapshot file; undefined when it cannot be read. */
function shippedManifest(snapshotFile: string, skillId: string): unknown {
  try {
    const snapshots = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Record<string, { manifest?: unknown } | undefined>;
    return Object.hasOwn(snapshots, skillId) ? snapshots[skillId]?.manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the built-in's thread when its shipped manifest gives a guess (run-argv.ts read the command line); otherwise does nothing. */
export function startBuiltinThread(run: BuiltinRunTarget, snapshotFile: string): void {
  const limits = guessThreadLimits(shippedManifest(snapshotFile, run.skillId), run.entrypoint, 'builtin');
  if (limits === undefined) return;
  let spare: SpareWorker;
  try {
    const worker = startWorker({ chunk: 'builtin-worker', entry: 'workerMain', resourceLimits: limits });
    if (worker === undefined) return;
    // Waiting, it keeps nothing alive (spareOf): a run refused before it needs the thread ends at once.
    spare = spareOf(worker, limits);
  } catch {
    // Only a guess: a thread that cannot start here leaves the run to start its own, and to report why.
    return;
  }
  const early: EarlyBuiltinThread = { spare, skillId: run.skillId, entrypoint: run.entrypoint };
  slot.put(early);
}

/** The thread started here, if any, handed over once: the caller takes it for its own limits or stops it. */
export function takeEarlyBuiltinThread(): EarlyBuiltinThread | undefined {
  return slot.take();
}
