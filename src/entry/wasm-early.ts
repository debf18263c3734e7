/**
 * `skillctl run <bundle directory>` of a wasm skill: the module's thread started by dist/boot.cjs
 * before the CLI loads. A thread is a fresh V8 isolate with its own Node.js bootstrap (about 50 ms
 * here), longer than the run takes to reach its job; started here, ~35 ms earlier than the run
 * itself could (src/cli/wasm-spare.ts, after the CLI, the run's chunk and the policy), it boots
 * while all of that loads (docs/performance.md, "WebAssembly skills").
 *
 * It is only a guess, as the run's own spare is: the heap limits from the bundle's skill.json
 * under the default policy, made before the policy in force is known. The run takes this thread
 * only if its own limits, from the validated manifest and the policy in force, are exactly these
 * (wasm-spare.ts); otherwise it is stopped. The thread runs nothing but what the run posts to it.
 * A command line run-argv.ts does not read plainly (an unknown option, a second target) gets no
 * thread, and this bundle is not even loaded.
 */
import { earlyWasmThreadGuess } from '../core/run/wasm/expected-thread.js';
import { THREAD_OPTIONS, THREAD_SOURCE } from '../core/run/wasm/thread-source.js';
import type { WasmRunTarget } from './run-argv.js';
import { earlySlot } from './early-slot.js';
import { spareOf, type SpareWorker } from './spare-worker.js';

/** Where the thread waits for the run: this bundle and the run's are loaded apart. */
const slot = earlySlot<EarlyThread>('skillctl.wasm-early');

/** The thread started here, and what it was started for. */
export interface EarlyThread {
  readonly spare: SpareWorker;
  /** The bundle directory (absolute) and --entrypoint the command line names. */
  readonly dir: string;
  readonly entrypoint: string | undefined;
  /** skill.json's bytes, read for the guess: the run's own guess starts from them. */
  readonly manifest: Uint8Array;
}

/** Starts the thread when the directory holds a wasm skill (run-argv.ts read the command line); otherwise does nothing. */
export function startWasmThread(run: WasmRunTarget): void {
  const guess = earlyWasmThreadGuess(run.dir, run.entrypoint);
  if (guess === undefined) return;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  let spare: SpareWorker;
  try {
    // Waiting, it keeps nothing alive (spareOf): a run refused before it needs the thread ends at once.
    spare = spareOf(new Worker(THREAD_SOURCE, { ...THREAD_OPTIONS, resourceLimits: guess.limits }), guess.limits);
  } catch {
    // Only a guess: a thread that cannot start here leaves the run to start its own, and to report why.
    return;
  }
  const early: EarlyThread = { spare, dir: run.dir, entrypoint: run.entrypoint, manifest: guess.manifest };
  slot.put(early);
}

/** The thread started here, if any, handed over once: the caller takes it for its own limits or stops it. */
export function takeEarlyWasmThread(): EarlyThread | undefined {
  return slot.take();
}
