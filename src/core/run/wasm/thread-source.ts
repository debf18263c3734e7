/**
 * How a module's thread is started: from the source text of wasmThread (thread.ts), wasiImports
 * (wasi-thread.ts) and guestMemory (wasi-guest-memory.ts), the same whether skillctl runs from its bundles or from source.
 * Its own module, light, so that the start-up wing (src/entry/wasm-early.ts) can start a thread
 * before the run's code loads, and the run (runtimes/wasm.ts) hand its job to that very thread.
 */
import { wasmThread } from './thread.js';
import { guestMemory } from './wasi-guest-memory.js';
import { wasiImports } from './wasi-thread.js';

/**
 * The module's thread: its job is its workerData, or, for a spare started before the run knew
 * its module, the first message its parent posts.
 */
export const THREAD_SOURCE = `const wt = process.getBuiltinModule('node:worker_threads');
const go = (d) => (${wasmThread.toString()})((c) => (${wasiImports.toString()})(c, ${guestMemory.toString()}), d);
if (wt.workerData !== undefined) go(wt.workerData);
else wt.parentPort.once('message', go);`;

/** Every module's thread has its own stdout and stderr, read by nobody: the module reaches neither. */
export const THREAD_OPTIONS = { eval: true, stdout: true, stderr: true } as const;
