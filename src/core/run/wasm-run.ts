/**
 * Preparing a wasm entrypoint's run: the module read from the bundle, checked and rewritten under
 * the run's limits (refused here, before anything of it runs), the gate over the grant its
 * hostcalls ask, and the receipt its audit record carries (runtimes/wasm.ts runs it).
 */
import { sha256 } from '../digest/index.js';
import type { GateUse } from '../policy/index.js';
import type { Entrypoint } from '../manifest/index.js';
import type { Authorisation, HostLookup } from '../policy/index.js';
import type { Attempt, RunStatus } from './attempt.js';
import type { RunTrail } from './trail.js';
import { PROVENACT_IO } from './provenact-bundle.js';
import { builtinGate } from './runtimes/builtin.js';
import { capsUsed, checkWasmModule, readWasmModule, runWasm, WASM_DEFAULT_FUEL, wasmMemoryBytes, type WasmLimits } from './runtimes/wasm.js';

/** What preparing a wasm run needs of the engine's preparation (prepare.ts's PrepareInput has it all). */
export interface WasmRunInput {
  readonly trail: RunTrail;
  readonly ep: Entrypoint;
  readonly bundleDir: string;
  readonly auth: Authorisation;
  readonly input: unknown;
  readonly cwd: string;
  readonly lookupHost?: HostLookup;
  readonly signal?: AbortSignal;
  readonly wasmFuel?: number | null;
}

export async function prepareWasmRun(p: WasmRunInput, protectedPaths: readonly string[], pathEnv: string, input: Uint8Array): Promise<{ readonly execute: () => Promise<Attempt> } | { readonly status: RunStatus }> {
  const { trail, ep, auth } = p;
  const file = await readWasmModule(ep, p.bundleDir);
  if ('refused' in file) {
    trail.add(file.refused);
    return { status: 'bundle_invalid' };
  }
  const limits: WasmLimits = {
    timeoutMs: auth.limits.timeoutMs,
    maxOutputBytes: auth.limits.maxOutputBytes,
    memoryBytes: wasmMemoryBytes(ep, auth.limits.memoryMiB),
    fuel: p.wasmFuel === undefined ? WASM_DEFAULT_FUEL : p.wasmFuel,
  };
  const module = checkWasmModule(file, limits);
  if ('refused' in module) {
    trail.add(module.refused);
    return { status: module.refused.code === 'RUN_WASM_MEMORY_LIMIT' ? 'memory_limit' : 'bundle_invalid' };
  }
  trail.facts.observable = true;
  // The module reaches nothing but its hostcalls: no process, no file, no socket of its own.
  trail.facts.sandbox = 'wasm';
  trail.facts.caps = { memory: 'thread', processes: 'none' };
  const uses: GateUse[] = [];
  trail.facts.uses = uses;
  const gate = builtinGate({ cwd: p.cwd, granted: auth.grant.granted, pathEnv, protectedPaths }, (use) => uses.push(use), p.lookupHost);
  const receipt = (output: Uint8Array | null): void => {
    trail.facts.wasm = {
      artifact_digest: file.digest,
      output_bytes_digest: output === null ? null : sha256(output),
      caps_used: capsUsed(uses),
      limits: { fuel: limits.fuel, memory_bytes: limits.memoryBytes, timeout_ms: limits.timeoutMs, max_output_bytes: limits.maxOutputBytes },
    };
  };
  receipt(null);
  const io = (ep as unknown as Record<string, unknown>)[PROVENACT_IO] === 'bytes' ? 'bytes' : 'json';
  const bytes = io === 'bytes' && typeof p.input === 'string' ? Buffer.from(p.input, 'utf8') : input;
  return {
    execute: async () => {
      const a = await runWasm({ module, input: bytes, io, limits, gate, cwd: p.cwd, heapMiB: auth.limits.memoryMiB, userAgent: `skillctl (wasm ${file.digest.slice(7, 19)})`, onOutput: receipt }, p.signal);
      // The caps a refused or trapped run used are in its receipt too.
      if (trail.facts.wasm?.output_bytes_digest === null) receipt(null);
      return a;
    },
  };
}
