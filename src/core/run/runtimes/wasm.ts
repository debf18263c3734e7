/**
 * The wasm runtime: a WebAssembly module from the bundle runs in a worker thread of its own with
 * the provenact host ABI as its only imports. Before it starts, the module is checked and
 * rewritten (wasm/module.ts: imports, memory and table caps, the entry's signature, fuel); while
 * it runs, its hostcalls are answered here, behind the same gate as every other runtime
 * (wasm/hostcalls.ts); at the deadline its thread is terminated. docs/formats/wasm.md.
 */
import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { Worker, MessageChannel, type ResourceLimits } from 'node:worker_threads';
import { diag, type Diagnostic } from '../../diagnostics.js';
import { sha256 } from '../../digest/index.js';
import { readBounded } from '../../fs/read-bounded.js';
import { commandArgv, type Entrypoint } from '../../manifest/index.js';
import { checkedFs, type CheckedFs, type GateUse, type RecordingGate } from '../../policy/index.js';
import { interrupted, type Attempt } from '../attempt.js';
import { HostWork, stoppableFs } from '../wasm/host-work.js';
import { serveHostcall, type HostAnswer, type HostRequest } from '../wasm/hostcalls.js';
import { MAX_MODULE_BYTES, prepareModule, PAGE_BYTES, type PreparedModule } from '../wasm/module.js';
import { wasmApi } from '../wasm/engine-types.js';
import type { ThreadData, ThreadResult } from '../wasm/thread.js';
import { THREAD_OPTIONS, THREAD_SOURCE } from '../wasm/thread-source.js';
import { validationRefusal } from '../wasm/validation-work.js';
import { WASI_UNCHECKED_WRITE_BYTES } from '../wasm/wasi-abi.js';
import { wasiFs, type Preopen, type WasiAnswer, type WasiRequest } from '../wasm/wasi-fs.js';
import { builtinThreadLimits, COMMIT_GRACE_MS } from '../thread-limits.js';
import { attempt, interpret, type WasmIo, type WasmLimits } from './wasm-outcome.js';

export type { WasmIo, WasmLimits } from './wasm-outcome.js';

/** provenact's defaults: 8 MiB of memory, 10,000,000 instructions. */
export const WASM_DEFAULT_MEMORY_BYTES = 8 * 1024 * 1024;
export const WASM_DEFAULT_FUEL = 10_000_000;
/** The export a module's entry is when the command names none (every provenact bundle uses it). */
export const WASM_DEFAULT_ENTRY = 'run';

/** What a WASI module's stderr may hold; past it, the rest is dropped (stderr is shown, never audited). */
export const WASI_MAX_STDERR_BYTES = 64 * 1024;

export interface WasmModuleFile {
  readonly bytes: Uint8Array;
  readonly digest: string;
  readonly entry: string;
}

/** The module the entrypoint names, read from inside the bundle (never through a link out of it). */
export async function readWasmModule(ep: Entrypoint, bundleDir: string): Promise<WasmModuleFile | { readonly refused: Diagnostic }> {
  const [file = '', entry = WASM_DEFAULT_ENTRY, ...rest] = commandArgv(ep.command);
  const bad = (message: string): { refused: Diagnostic } => ({ refused: diag('RUN_WASM_INVALID', message, { pointer: '/command' }) });
  if (rest.length > 0 || !file.endsWith('.wasm')) return bad('a wasm entrypoint names its module and, optionally, the export to call: <module>.wasm [export]');
  let real: string;
  try {
    const root = await realpath(bundleDir);
    real = await realpath(`${root}/${file}`);
    if (!real.startsWith(root + sep)) return bad(`the module ${JSON.stringify(file)} lies outside the bundle`);
  } catch (err) {
    return bad(`the module ${JSON.stringify(file)} cannot be read (${(err as { code?: string }).code ?? 'error'})`);
  }
  // One open of the path just checked, which neither follows a link swapped in since nor blocks on a FIFO.
  const read = await readBounded(real, { maxBytes: MAX_MODULE_BYTES, followLinks: false });
  if (read.ok) return { bytes: read.bytes, digest: sha256(read.bytes), entry };
  if (read.reason === 'too-large') return bad(`the module is ${read.size} bytes, more than ${MAX_MODULE_BYTES}`);
  if (read.reason === 'not-regular') return bad(`the module ${JSON.stringify(file)} is not a file`);
  return bad(`the module ${JSON.stringify(file)} cannot be read (${read.errno})`);
}

/** The memory a run grants: the entrypoint's max_memory when it declares one, else provenact's 8 MiB, within the policy's cap. */
export function wasmMemoryBytes(ep: Entrypoint, memoryMiB: number): number {
  const cap = Math.floor(memoryMiB * 1024 * 1024);
  const bytes = ep.runtime_limits?.max_memory !== undefined ? cap : Math.min(WASM_DEFAULT_MEMORY_BYTES, cap);
  return Math.max(PAGE_BYTES, bytes - (bytes % PAGE_BYTES));
}

/** The engine's own validation; never throws. */
function engineValid(bytes: Uint8Array): boolean {
  try {
    return wasmApi().validate(bytes);
  } catch {
    return false;
  }
}

/** `named`: the command names the export to call; else the module's ABI says (`_start` for a WASI command, else `run`). */
export function checkWasmModule(file: WasmModuleFile, limits: WasmLimits, named = true): PreparedModule | { readonly refused: Diagnostic } {
  const invalid = (what: string): { refused: Diagnostic } => ({ refused: diag('RUN_WASM_INVALID', `the ${what} is not valid WebAssembly (the engine refused it)`, { pointer: '/command' }) });
  // The module as written first. The rewrite gives the fuel counter the next free global index,
  // so a module whose code names that index (invalid on its own) would, once rewritten, validate
  // with write access to its own budget: only a module the engine accepts as it stands is rewritten.
  const tooMuch = validationRefusal(file.bytes);
  if (tooMuch !== undefined) return { refused: diag('RUN_WASM_INVALID', tooMuch, { pointer: '/command' }) };
  if (!engineValid(file.bytes)) return invalid('module');
  const prepared = prepareModule(file.bytes, { memoryBytes: limits.memoryBytes, ...(named ? { entry: file.entry } : {}), ...(limits.fuel !== null ? { fuel: limits.fuel } : {}) });
  if ('refused' in prepared) return { refused: diag(prepared.refused.code, prepared.refused.message, { pointer: '/command' }) };
  // And what the rewrite made of it, before a thread is started for it.
  return engineValid(prepared.bytes) ? prepared : invalid('rewritten module');
}

/** The bare capability kinds the run used, sorted and distinct (provenact's `caps_used`). */
export function capsUsed(uses: readonly GateUse[]): string[] {
  return [...new Set(uses.filter((u) => u.allowed).map((u) => u.scope))].sort();
}

export interface WasmJob {
  readonly module: PreparedModule;
  readonly input: Uint8Array;
  readonly limits: WasmLimits;
  readonly gate: RecordingGate;
  readonly cwd: string;
  /** The V8 heap of the thread (the module's memory is capped by the module's rewrite). */
  readonly heapMiB: number;
  readonly userAgent: string;
  readonly io: WasmIo;
  /** Told the module's output bytes, when it ended with one. */
  readonly onOutput?: (bytes: Uint8Array | null) => void;
  /** For a WASI command: its arguments, environment (`NAME=value`) and preopened directories. */
  readonly wasi?: { readonly args: readonly string[]; readonly env: readonly string[]; readonly preopens: readonly Preopen[] };
  /** A thread started early (startSpareWasmThread): used only if its limits are the job's. */
  readonly spare?: WasmSpare;
  /** The checked file layer the hostcalls use; default checkedFs(gate, cwd). */
  readonly files?: CheckedFs;
}

/**
 * A module's thread started before its run knows the module, with the heap limits the run is
 * expected to give it (a thread's limits are fixed when it starts): it boots (a fresh V8 isolate
 * and Node.js bootstrap, most of a small module's run) while the run validates the bundle, and
 * waits for its job. The run takes it only for exactly those limits (WasmJob.spare).
 */
export function startSpareWasmThread(resourceLimits: ResourceLimits): Worker {
  return new Worker(THREAD_SOURCE, { ...THREAD_OPTIONS, resourceLimits });
}

/** A spare thread, handed over once if it was started with exactly `limits` (src/entry/spare-worker.ts). */
export interface WasmSpare {
  take(limits: ResourceLimits): Worker | undefined;
}

export function runWasm(job: WasmJob, outer?: AbortSignal): Promise<Attempt> {
  const { port1, port2 } = new MessageChannel();
  const ctrl = new SharedArrayBuffer(4);
  const flag = new Int32Array(ctrl);
  const wasi = job.module.wasi ? (job.wasi ?? { args: [], env: [], preopens: [] }) : undefined;
  const data: ThreadData = {
    bytes: job.module.bytes,
    entry: job.module.entry,
    returnsI32: job.module.returnsI32,
    input: job.input,
    maxOutputBytes: job.limits.maxOutputBytes,
    ctrl,
    port: port2,
    ...(wasi !== undefined ? { wasi: { args: wasi.args, env: wasi.env, maxStderrBytes: WASI_MAX_STDERR_BYTES, uncheckedWriteBytes: WASI_UNCHECKED_WRITE_BYTES } } : {}),
  };
  const resourceLimits = builtinThreadLimits(job.heapMiB);
  const spare = job.spare?.take(resourceLimits);
  spare?.postMessage(data, [port2]);
  const worker = spare ?? new Worker(THREAD_SOURCE, { ...THREAD_OPTIONS, workerData: data, transferList: [port2], resourceLimits });
  const work = new HostWork();
  const ctx = { gate: job.gate, files: stoppableFs(job.files ?? checkedFs(job.gate, job.cwd), work.signal), userAgent: job.userAgent, signal: work.signal };
  const files = wasi !== undefined ? wasiFs(job.gate, ctx.files, wasi.preopens) : undefined;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    /** The module reported its end (its thread runs nothing more); its open files may be being committed. */
    let reported = false;
    /** The commit's renames began: a stop waits for them (within COMMIT_GRACE_MS), and the run's outcome stands. */
    let renaming = false;
    /**
     * `byModule`: the thread posted its result, after which it runs nothing (wasmThread returns
     * once it has posted) and its hostcalls go unanswered (port1 is closed): it is terminated
     * without waiting for its teardown. Stopped any other way (the deadline, a signal, a failed
     * thread), it is gone before the run goes on, and the host work its hostcalls started is
     * stopped. Either way the run ends once that work has (host-work.ts): no change after the end.
     */
    const end = (a: Attempt | Promise<Attempt>, byModule = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      outer?.removeEventListener('abort', onOuter);
      port1.close();
      const stopped = worker.terminate();
      if (!byModule) work.abort();
      void Promise.all([byModule ? undefined : stopped, a, work.drained(COMMIT_GRACE_MS)]).then(([, x]) => resolve(x));
    };
    let grace: NodeJS.Timeout | undefined;
    /** The deadline or a signal: the run ends now, unless the commit's renames are under way. */
    const stop = (a: Attempt): void => {
      if (!renaming) return end(a);
      grace ??= setTimeout(() => end(a), COMMIT_GRACE_MS);
    };
    const timer = setTimeout(() => stop(attempt('timeout', diag('RUN_TIMEOUT', `the module ran past ${job.limits.timeoutMs} ms; its thread was stopped`))), job.limits.timeoutMs);
    const onOuter = (): void => stop(interrupted());
    outer?.addEventListener('abort', onOuter, { once: true });
    port1.on('message', (req: HostRequest | WasiRequest) => {
      if (settled) return;
      void work
        .track<HostAnswer | WasiAnswer>(req.op === 'wasi' ? (files?.serve(req) ?? Promise.resolve({ kind: 'fail' as const })) : serveHostcall(ctx, req))
        .catch(() => ({ kind: 'fail' as const }))
        .then((answer) => {
          if (settled) return;
          port1.postMessage(answer);
          Atomics.store(flag, 0, 1);
          Atomics.notify(flag, 0);
        });
    });
    worker.on('message', (r: ThreadResult) => {
      if (settled || reported) return;
      reported = true;
      const result = interpret(r, job.module, job.limits, job.io, job.onOutput ?? (() => undefined));
      if (r.t !== 'exit' || files === undefined) return end(result, true);
      // A WASI command that ended by returning or by proc_exit has its open files written (a trap
      // does not), within its deadline: reached first, it stops the commit and none is renamed.
      port1.close();
      void work
        .track(files.commitAll({ signal: work.signal, renaming: () => (renaming = true) }))
        .catch(() => undefined)
        // Stopped while renaming, the commit finished in its grace: the outcome stands, as the files do.
        .then(() => end(result, true));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (reported) return;
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') end(attempt('memory_limit', diag('RUN_MEMORY_LIMIT', `the module's thread ran out of its ${job.heapMiB} MiB heap and was stopped`)));
      else end(attempt('failed', diag('RUN_WASM_TRAP', `the module's thread failed: ${err.message}`)));
    });
    worker.on('exit', () => {
      if (!reported) end(attempt('failed', diag('RUN_WASM_TRAP', "the module's thread ended without a result")));
    });
  });
}
