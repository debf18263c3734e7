/**
 * Preparing a wasm entrypoint's run: the module read from the bundle, checked and rewritten under
 * the run's limits (refused here, before anything of it runs), the gate over the grant its
 * hostcalls ask, and the receipt its audit record carries (runtimes/wasm.ts runs it).
 */
import { sha256 } from '../digest/index.js';
import { diag } from '../diagnostics.js';
import type { GateUse } from '../policy/index.js';
import { commandArgv, type Entrypoint } from '../manifest/index.js';
import type { Authorisation, HostLookup } from '../policy/index.js';
import type { Attempt, RunStatus } from './attempt.js';
import type { RunTrail } from './trail.js';
import { PROVENACT_IO } from './provenact-bundle.js';
import { builtinGate } from './runtimes/builtin.js';
import { capsUsed, checkWasmModule, readWasmModule, runWasm, WASM_DEFAULT_FUEL, wasmMemoryBytes, type WasmLimits, type WasmSpare } from './runtimes/wasm.js';
import { WASI_ENTRY } from './wasm/wasi-abi.js';
import { wasiPreopens } from './wasm/wasi-grant.js';

/** What preparing a wasm run needs of the engine's preparation (prepare.ts's PrepareInput has it all). */
export interface WasmRunInput {
  readonly trail: RunTrail;
  readonly ep: Entrypoint;
  readonly bundleDir: string;
  readonly auth: Authorisation;
  readonly input: unknown;
  readonly cwd: string;
  /** Real paths of the policy's fs.write (PrepareInput.writable). */
  readonly writable: readonly string[];
  readonly lookupHost?: HostLookup;
  readonly signal?: AbortSignal;
  readonly wasmFuel?: number | null;
  readonly wasmSpare?: WasmSpare;
}

/**
 * `env` is the environment the process runtimes get (the granted variables the entrypoint
 * declares, and the run's context): a WASI command sees it without PATH, since it runs no program.
 */
export async function prepareWasmRun(p: WasmRunInput, paths: { readonly protectedPaths: readonly string[]; readonly secretPaths: readonly string[] }, env: Readonly<Record<string, string>>, input: Uint8Array): Promise<{ readonly execute: () => Promise<Attempt> } | { readonly status: RunStatus }> {
  const { trail, ep, auth } = p;
  const pathEnv = env.PATH ?? '';
  // `[module.wasm, _start, args...]`: a WASI command and its arguments (argv[0] is the module's name).
  const argv = commandArgv(ep.command);
  const wasiArgs = argv[1] === WASI_ENTRY ? argv.slice(2) : [];
  const file = await readWasmModule(wasiArgs.length > 0 ? { ...ep, command: argv.slice(0, 2) } : ep, p.bundleDir);
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
  const module = checkWasmModule(file, limits, argv.length > 1);
  if ('refused' in module) {
    trail.add(module.refused);
    return { status: module.refused.code === 'RUN_WASM_MEMORY_LIMIT' ? 'memory_limit' : 'bundle_invalid' };
  }
  if (wasiArgs.length > 0 && !module.wasi) {
    trail.add(diag('RUN_WASM_ENTRY_INVALID', `the command gives arguments, but the module is not a WASI command (it does not import "wasi_snapshot_preview1"); only a WASI command takes arguments`, { pointer: '/command' }));
    return { status: 'bundle_invalid' };
  }
  trail.facts.observable = true;
  // The module reaches nothing but its hostcalls: no process, no file, no socket of its own.
  trail.facts.sandbox = 'wasm';
  trail.facts.caps = { memory: 'thread', processes: 'none' };
  const uses: GateUse[] = [];
  trail.facts.uses = uses;
  // A WASI module goes on after a refusal (NOTCAPABLE): each answer is kept once, however often it asks.
  const gate = builtinGate({ cwd: p.cwd, granted: auth.grant.granted, pathEnv, writable: p.writable, ...paths }, (use) => uses.push(use), p.lookupHost, true);
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
      // Each attempt's receipt afresh: a retry that ends without output must not keep the digest
      // and caps of the attempt before it (audit verify found caps_used short of what was used).
      receipt(null);
      const wasi = {
        args: [argv[0] ?? '', ...wasiArgs],
        env: Object.entries(env)
          .filter(([name]) => name !== 'PATH')
          .map(([name, value]) => `${name}=${value}`),
        preopens: wasiPreopens(auth.grant.granted),
      };
      const a = await runWasm({ module, input: bytes, io, limits, gate, cwd: p.cwd, heapMiB: auth.limits.memoryMiB, userAgent: `skillctl (wasm ${file.digest.slice(7, 19)})`, onOutput: receipt, wasi, ...(p.wasmSpare !== undefined ? { spare: p.wasmSpare } : {}) }, p.signal);
      // The caps a refused or trapped run used are in its receipt too.
      if (trail.facts.wasm?.output_bytes_digest === null) receipt(null);
      return a;
    },
  };
}
