/**
 * For a run of a wasm skill given by path, its module's thread started now, before the bundle is
 * read (src/core/run/wasm/expected-thread.ts guesses its heap limits from skill.json; the thread
 * waits for its job). A thread is a fresh V8 isolate with its own Node.js bootstrap, most of a
 * small module's run: started here it boots while the run validates the bundle (docs/performance.md,
 * "WebAssembly skills"). The run takes it only if its own limits are exactly these. The start-up
 * wing may have started one already, under the default policy (src/entry/wasm-early.ts): it is
 * this thread when its limits are these, else it is stopped; the skill.json it read serves this
 * guess too.
 */
import { resolve } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type { HostPolicy } from '../core/policy/index.js';
import type { PolicyInForce } from '../core/run/index.js';
import { startSpareWasmThread } from '../core/run/runtimes/wasm.js';
import { expectedWasmThreadLimits, wasmThreadLimitsOf } from '../core/run/wasm/expected-thread.js';
import { spareOf, type SpareWorker } from '../entry/spare-worker.js';
import { takeEarlyWasmThread, type EarlyThread } from '../entry/wasm-early.js';

export async function spareWasmThread(cwd: string, target: string, entrypoint: string | undefined, policy: PolicyInForce): Promise<SpareWorker | undefined> {
  const early = takeEarlyWasmThread();
  const limits = 'invalid' in policy || target.startsWith('oci://') ? undefined : await guess(resolve(cwd, target), entrypoint, policy, early);
  if (limits === undefined) {
    early?.spare.stop();
    return undefined;
  }
  return spareOf(early?.spare.take(limits) ?? startSpareWasmThread(limits), limits);
}

/** The guess under the policy in force, from the skill.json the start-up wing read for the same bundle, else read now. */
function guess(dir: string, entrypoint: string | undefined, policy: HostPolicy, early: EarlyThread | undefined): Promise<ResourceLimits | undefined> | ResourceLimits | undefined {
  return early !== undefined && early.dir === dir && early.entrypoint === entrypoint ? wasmThreadLimitsOf(early.manifest, entrypoint, policy) : expectedWasmThreadLimits(dir, entrypoint, policy);
}
