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
 * A command line this does not read plainly (an unknown option, a second target) gets no thread.
 */
import { resolve } from 'node:path';
import { earlyWasmThreadGuess } from '../core/run/wasm/expected-thread.js';
import { THREAD_OPTIONS, THREAD_SOURCE } from '../core/run/wasm/thread-source.js';
import { spareOf, type SpareWorker } from './spare-worker.js';

/** Where the thread waits for the run: this bundle and the run's are loaded apart. */
const SLOT = Symbol.for('skillctl.wasm-early');

/** `run`'s options that take a value (src/cli/commands/run/index.ts), and the flags, the global ones included. */
const VALUED = new Set(['--entrypoint', '--input', '--policy', '--sandbox', '--retries', '--audit', '--contracts']);
const FLAGS = new Set(['--no-audit', '--check-determinism', '--json', '--no-color', '-q', '--quiet', '--debug']);

/** The bundle directory (absolute) and --entrypoint of a plain `run <directory>`, else undefined. */
export function wasmRunTarget(argv: readonly string[]): { readonly dir: string; readonly entrypoint?: string } | undefined {
  if (argv[0] !== 'run') return undefined;
  let target: string | undefined;
  let entrypoint: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (VALUED.has(arg)) {
      const value = argv[++i];
      if (value === undefined) return undefined;
      if (arg === '--entrypoint') entrypoint = value;
    } else if (!FLAGS.has(arg)) {
      if (arg === '' || arg.startsWith('-') || target !== undefined) return undefined;
      target = arg;
    }
  }
  // A directory as the run reads one (src/core/run/resolve.ts, isPathTarget): not a skill id, an archive or an OCI reference.
  if (target === undefined || !(target.includes('/') || target.startsWith('.')) || target.endsWith('.tgz') || target.startsWith('oci://')) return undefined;
  return { dir: resolve(target), ...(entrypoint !== undefined ? { entrypoint } : {}) };
}

/** The thread started here, and what it was started for. */
export interface EarlyThread {
  readonly spare: SpareWorker;
  /** The bundle directory (absolute) and --entrypoint the command line names. */
  readonly dir: string;
  readonly entrypoint: string | undefined;
  /** skill.json's bytes, read for the guess: the run's own guess starts from them. */
  readonly manifest: Uint8Array;
}

/** Starts the thread for `argv` when it runs a wasm skill from a directory; otherwise does nothing. */
export function startWasmThread(argv: readonly string[]): void {
  const run = wasmRunTarget(argv);
  const guess = run !== undefined ? earlyWasmThreadGuess(run.dir, run.entrypoint) : undefined;
  if (run === undefined || guess === undefined) return;
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  // Waiting, it keeps nothing alive (spareOf): a run refused before it needs the thread ends at once.
  const spare = spareOf(new Worker(THREAD_SOURCE, { ...THREAD_OPTIONS, resourceLimits: guess.limits }), guess.limits);
  const early: EarlyThread = { spare, dir: run.dir, entrypoint: run.entrypoint, manifest: guess.manifest };
  (globalThis as Record<symbol, unknown>)[SLOT] = early;
}

/** The thread started here, if any, handed over once: the caller takes it for its own limits or stops it. */
export function takeEarlyWasmThread(): EarlyThread | undefined {
  const slot = globalThis as Record<symbol, EarlyThread | undefined>;
  const early = slot[SLOT];
  slot[SLOT] = undefined;
  return early;
}
