/**
 * The heap limits of the worker thread a built-in skill or a wasm module runs in, how long a
 * stopped one waits for a commit, and the light
 * guess of them that the start-up wing makes before anything is validated (src/entry/wasm-early.ts,
 * src/entry/builtin-early.ts). A leaf on purpose: those bundles load on every `run` and must not
 * bring the engine with them.
 */
import type { ResourceLimits } from 'node:worker_threads';
import { resolveLimits } from '../manifest/limits.js';
import type { RuntimeLimits } from '../manifest/model.js';

/**
 * How long a stopped run waits for a commit already begun (a built-in's, a wasm hostcall's rename),
 * so that a write is whole or not made, and lands before the run's end record.
 */
export const COMMIT_GRACE_MS = 10_000;

/** V8's heap needs room of its own before a skill allocates anything. */
const MIN_HEAP_MIB = 32;

/** The limits of the thread a built-in (or a wasm module) runs in when its run may use `memoryMiB`. */
export function builtinThreadLimits(memoryMiB: number): ResourceLimits {
  return { maxOldGenerationSizeMb: Math.max(MIN_HEAP_MIB, Math.floor(memoryMiB)), stackSizeMb: 4 };
}

/** What the guess reads of an entrypoint; nothing of it has been validated. */
interface UncheckedEntrypoint {
  readonly entrypoint_id?: unknown;
  readonly runtime?: unknown;
  readonly runtime_limits?: RuntimeLimits;
}

/**
 * The thread limits of `manifest`'s entrypoint (`entrypointId`, else the only one, else `main`:
 * select.ts's rule, without its diagnostics) when it runs on `runtime`, under the default
 * policy, which caps nothing; undefined when the manifest is not shaped for a guess. Only a
 * guess: the run hands its job to a thread started with these limits only when its own, worked
 * out from the validated manifest and the policy in force, are exactly the same.
 */
export function guessThreadLimits(manifest: unknown, entrypointId: string | undefined, runtime: 'builtin' | 'wasm'): ResourceLimits | undefined {
  const entrypoints = (manifest as { entrypoints?: unknown } | null)?.entrypoints;
  if (!Array.isArray(entrypoints)) return undefined;
  const list = entrypoints as readonly (UncheckedEntrypoint | null)[];
  const ep = entrypointId !== undefined ? list.find((e) => e?.entrypoint_id === entrypointId) : list.length === 1 ? list[0] : list.find((e) => e?.entrypoint_id === 'main');
  if (ep?.runtime !== runtime || typeof ep.runtime_limits !== 'object' || ep.runtime_limits === null) return undefined;
  try {
    return builtinThreadLimits(resolveLimits(ep.runtime_limits).memoryMiB);
  } catch {
    // Limits shaped unlike a manifest's: the validation says why; here, no guess.
    return undefined;
  }
}
