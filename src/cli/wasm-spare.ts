/**
 * For a run of a wasm skill given by path, its module's thread started now, before the bundle is
 * read (src/core/run/wasm/expected-thread.ts guesses its heap limits from skill.json; the thread
 * waits for its job). A thread is a fresh V8 isolate with its own Node.js bootstrap, most of a
 * small module's run: started here it boots while the run validates the bundle (docs/performance.md,
 * "WebAssembly skills"). The run takes it only if its own limits are exactly these.
 */
import { resolve } from 'node:path';
import type { PolicyInForce } from '../core/run/index.js';
import { startSpareWasmThread } from '../core/run/runtimes/wasm.js';
import { expectedWasmThreadLimits } from '../core/run/wasm/expected-thread.js';
import { spareOf, type SpareWorker } from '../entry/spare-worker.js';

export async function spareWasmThread(cwd: string, target: string, entrypoint: string | undefined, policy: PolicyInForce): Promise<SpareWorker | undefined> {
  if ('invalid' in policy || target.startsWith('oci://')) return undefined;
  const limits = await expectedWasmThreadLimits(resolve(cwd, target), entrypoint, policy);
  return limits === undefined ? undefined : spareOf(startSpareWasmThread(limits), limits);
}
