/**
 * The module's thread. WebAssembly calls its imports synchronously, but a hostcall that reaches a
 * file or the network is asynchronous on the host (the gate resolves paths and host names, the
 * checked file layer opens handles). So the module runs in a worker thread of its own, and each
 * such hostcall posts its request to the run's thread on a MessagePort, then blocks on
 * `Atomics.wait` over a SharedArrayBuffer until the run's thread has answered on the port and
 * stored a flag; the answer is then taken with `receiveMessageOnPort`, synchronously. The calls
 * that need nothing of the host (input, output, sha256 of the input) are answered in the thread.
 *
 * `wasmThread` is started from its source text (`new Worker(source, { eval: true })`), the same
 * whether skillctl runs from its bundles or from source, so it refers to nothing outside itself.
 * Its job comes as the thread's workerData, or, for a thread started before the run knew its
 * module (a spare, runtimes/wasm.ts), as the first message on its parent port.
 * Every pointer and length the guest passes is checked against its memory: out of bounds is -1.
 */
import type * as WorkerThreads from 'node:worker_threads';
import type * as Crypto from 'node:crypto';
import type { WasmApi, WasmInstance, WasmMemory } from './engine-types.js';
import type { HostAnswer, HostRequest } from './hostcalls.js';
import type { WasiRequest } from './wasi-wire.js';
import type { WasiExit, WasiImports, WasiThreadContext } from './wasi-thread.js';

export interface ThreadData {
  readonly bytes: Uint8Array;
  readonly entry: string;
  readonly returnsI32: boolean;
  readonly input: Uint8Array;
  readonly maxOutputBytes: number;
  /** Int32 slot 0: 0 while a hostcall waits, 1 once its answer is on the port. */
  readonly ctrl: SharedArrayBuffer;
  readonly port: WorkerThreads.MessagePort;
  /** Set for a WASI command: its arguments and environment (`NAME=value`). */
  readonly wasi?: { readonly args: readonly string[]; readonly env: readonly string[]; readonly maxStderrBytes: number; readonly uncheckedWriteBytes: number };
}

export type ThreadResult =
  | { readonly t: 'done'; readonly output: Uint8Array | null; readonly returned: number | null }
  | { readonly t: 'denied'; readonly code: string; readonly reason: string; readonly operation: string }
  | { readonly t: 'trap'; readonly message: string; readonly fuel: boolean }
  | { readonly t: 'output_limit'; readonly size: number }
  | { readonly t: 'invalid'; readonly message: string }
  | WasiExit;

/**
 * `makeWasi` is wasi-thread.ts's wasiImports with the guest-memory reader it is handed, passed in
 * as text beside this function's (thread-source.ts); `d` is the job.
 */
export function wasmThread(makeWasi: (c: WasiThreadContext) => WasiImports, d: ThreadData): void {
  const wt = process.getBuiltinModule('node:worker_threads') as typeof WorkerThreads;
  // Loaded when a call needs it (sha256_input_hex, random_fill): most modules make neither, and
  // loading node:crypto is a few milliseconds of the thread's start.
  const crypto = (): typeof Crypto => process.getBuiltinModule('node:crypto') as typeof Crypto;
  const parent = wt.parentPort as WorkerThreads.MessagePort;
  const ctrl = new Int32Array(d.ctrl);
  const input = d.input;
  // Not engine-types.ts's wasmApi(): this function is run from its text and imports nothing.
  const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

  /** Ends the run from inside a hostcall: it unwinds the module's frames like a trap. */
  class Stop extends Error {
    constructor(readonly result: ThreadResult) {
      super('stopped by the host');
    }
  }
  let memory: WasmMemory | undefined;
  let output: Uint8Array | null = null;
  let instance: WasmInstance | undefined;

  /**
   * Fuel for the bytes a hostcall moves between the guest's memory and the host, one unit per 64
   * as a bulk memory instruction pays (meter.ts): counted as one call, 20,000 output_write of
   * 1 MiB took 4.4 s on 1% of the budget. Past the budget the call throws, a trap that the host
   * tells by the counter (negative), as it tells an exhausted budget in the module's own code.
   */
  const pay = (bytes: number): void => {
    const fuel = instance?.exports.skillctl_fuel;
    if (!(fuel instanceof WA.Global) || bytes < 64) return;
    const counter = fuel as { value: bigint };
    counter.value -= BigInt(Math.floor(bytes / 64));
    if (counter.value < 0n) throw new Error('fuel exhausted in a hostcall');
  };

  /**
   * Fuel for the levels of a path the host walks (the gate resolves it, the file layer opens its
   * ancestors): 256 units each, as 16 KiB of bytes moved pay. Paid for its bytes alone (one unit
   * in 64), a path of 1,900 missing levels in 4 KB held the run's thread 15 to 100 ms a call on
   * 63 units, so only the deadline stopped a loop of them.
   */
  const PATH_LEVEL_FUEL = 256;
  const payPath = (path: string): void => {
    let levels = 1;
    for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) levels++;
    // As many units as the bytes PATH_LEVEL_FUEL * 64 would pay (pay counts one in 64).
    pay(levels * PATH_LEVEL_FUEL * 64);
  };
  /**
   * Fuel for the directories fs_write_file creates: 16,384 units each, what 1 MiB of bytes moved
   * pays (a mkdir, and the open, judgement and real path of what it made). Paid for its bytes
   * alone, a loop writing under 1,901 new directories a call (a path of 4 KB) held the run's
   * thread until its deadline. The host creates no more than the fuel left pays for.
   */
  const DIR_FUEL = 16_384;
  const affordableDirs = (): number => {
    const fuel = instance?.exports.skillctl_fuel;
    return fuel instanceof WA.Global ? Math.max(0, Number((fuel as { value: bigint }).value / BigInt(DIR_FUEL))) : Number.MAX_SAFE_INTEGER;
  };

  const view = (ptr: number, len: number): Uint8Array | undefined => {
    if (memory === undefined || !Number.isInteger(ptr) || !Number.isInteger(len) || ptr < 0 || len < 0) return undefined;
    const buf = memory.buffer;
    if (ptr + len > buf.byteLength) return undefined;
    return new Uint8Array(buf, ptr, len);
  };
  /** A path or URL the guest names: its bytes go to the host, and are paid for as any others. */
  const text = (ptr: number, len: number): string | undefined => {
    const v = view(ptr, len);
    if (v === undefined) return undefined;
    pay(len);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(v);
    } catch {
      return undefined;
    }
  };
  const exchange = (req: HostRequest | WasiRequest): unknown => {
    Atomics.store(ctrl, 0, 0);
    d.port.postMessage(req);
    while (Atomics.load(ctrl, 0) === 0) Atomics.wait(ctrl, 0, 0);
    const m = wt.receiveMessageOnPort(d.port);
    if (m === undefined) throw new Error('the host gave no answer');
    return m.message;
  };
  const ask = (req: HostRequest): HostAnswer => {
    const a = exchange(req) as HostAnswer;
    if (a.kind === 'denied') throw new Stop({ t: 'denied', code: a.code, reason: a.reason, operation: a.operation });
    return a;
  };
  /** An answer's bytes into the guest's buffer: their length, or -1. */
  const into = (a: HostAnswer, out: Uint8Array): number => {
    if (a.kind !== 'ok' || a.data === undefined || a.data.length > out.length) return -1;
    pay(a.data.length);
    out.set(a.data);
    return a.data.length;
  };
  // PATH_MAX_BYTES (policy/paths.ts): no file has a longer path, so such a path fails here (-1, as
  // provenact's open fails), neither decoded nor sent: 8 MB of it took each call 0.15 s.
  const PATH_MAX = 4095;
  const pathCall =
    (op: 'fs_read_file' | 'fs_read_tree' | 'http_fetch') =>
    (pPtr: number, pLen: number, oPtr: number, oLen: number): number => {
      if (op !== 'http_fetch' && pLen > PATH_MAX) return -1;
      const p = text(pPtr, pLen);
      const out = view(oPtr, oLen);
      if (p === undefined || out === undefined) return -1;
      if (op !== 'http_fetch') payPath(p);
      const a = ask(op === 'http_fetch' ? { op, url: p, max: oLen } : { op, path: p, max: oLen });
      // The entries a tree walk looked at, 512 units each (an lstat, as 32 KiB moved), whether or
      // not its answer fit: a loop of fs_read_tree of 5,000 files into a buffer of 0 bytes paid
      // for its path alone and ran until the deadline.
      // As many units as the bytes 512 * 64 would pay (pay counts one in 64).
      pay((a.kind === 'denied' ? 0 : (a.walked ?? 0)) * 512 * 64);
      // The guest's memory cannot have changed while it waited: take the view again all the same.
      return into(a, view(oPtr, oLen) ?? new Uint8Array(0));
    };
  const refusedCall =
    (op: 'kv_put' | 'kv_get' | 'queue_publish' | 'queue_consume') =>
    (): number => {
      ask({ op });
      return -1;
    };

  const provenact = {
    input_len: (): number => input.length,
    input_read: (ptr: number, offset: number, len: number): number => {
      if (offset < 0 || len < 0 || offset > input.length) return -1;
      const n = Math.min(len, input.length - offset);
      const v = view(ptr, n);
      if (v === undefined) return -1;
      pay(n);
      v.set(input.subarray(offset, offset + n));
      return n;
    },
    output_write: (ptr: number, len: number): number => {
      const v = view(ptr, len);
      if (v === undefined) return -1;
      if (len > d.maxOutputBytes) throw new Stop({ t: 'output_limit', size: len });
      pay(len);
      output = v.slice();
      return len;
    },
    sha256_input_hex: (ptr: number, len: number): number => {
      const v = view(ptr, 64);
      if (len < 64 || v === undefined) return -1;
      pay(input.length);
      v.set(new TextEncoder().encode(crypto().createHash('sha256').update(input).digest('hex')));
      return 64;
    },
    time_now_unix: (): bigint => {
      // The clock is the host's: the answer carries the seconds (little-endian i64).
      const a = ask({ op: 'time_now_unix' });
      return a.kind === 'ok' && a.data !== undefined && a.data.length === 8 ? new DataView(a.data.buffer, a.data.byteOffset, 8).getBigInt64(0, true) : -1n;
    },
    random_fill: (ptr: number, len: number): number => {
      const v = view(ptr, len);
      if (v === undefined || len > 8 * 1024 * 1024) return -1;
      ask({ op: 'random_fill' });
      crypto().randomFillSync(v);
      return len;
    },
    fs_read_file: pathCall('fs_read_file'),
    fs_read_tree: pathCall('fs_read_tree'),
    http_fetch: pathCall('http_fetch'),
    fs_write_file: (pPtr: number, pLen: number, dPtr: number, dLen: number): number => {
      if (pLen > PATH_MAX) return -1;
      const p = text(pPtr, pLen);
      const data = view(dPtr, dLen);
      if (p === undefined || data === undefined) return -1;
      pay(dLen);
      payPath(p);
      const a = ask({ op: 'fs_write_file', path: p, data: data.slice(), maxDirs: affordableDirs() });
      // As many units as the bytes DIR_FUEL * 64 would pay (pay counts one in 64).
      pay((a.kind === 'denied' ? 0 : (a.made ?? 0)) * DIR_FUEL * 64);
      return a.kind === 'ok' ? 0 : -1;
    },
    kv_put: refusedCall('kv_put'),
    kv_get: refusedCall('kv_get'),
    queue_publish: refusedCall('queue_publish'),
    queue_consume: refusedCall('queue_consume'),
  };

  const post = (r: ThreadResult): void => parent.postMessage(r);
  try {
    const mod = new WA.Module(d.bytes);
    const wasi =
      d.wasi === undefined
        ? undefined
        : makeWasi({
            mem: view,
            text,
            ask: (req) => {
              const a = exchange(req) as ReturnType<Parameters<typeof makeWasi>[0]['ask']>;
              // Anything but an errno (the host failed to answer the call) is ERRNO_IO (29), never success.
              return typeof a.errno === 'number' ? a : { kind: 'wasi', errno: 29 };
            },
            stop: (r) => {
              throw new Stop(r);
            },
            input,
            args: d.wasi.args,
            env: d.wasi.env,
            maxOutputBytes: d.maxOutputBytes,
            maxStderrBytes: d.wasi.maxStderrBytes,
            uncheckedWriteBytes: d.wasi.uncheckedWriteBytes,
            pay,
            payPath,
          });
    instance = new WA.Instance(mod, wasi === undefined ? { provenact } : { wasi_snapshot_preview1: wasi.imports });
    const exports = instance.exports;
    memory = exports.memory instanceof WA.Memory ? (exports.memory as WasmMemory) : undefined;
    const start = exports.skillctl_start;
    if (typeof start === 'function') (start as () => unknown)();
    const returned = (exports[d.entry] as () => unknown)();
    // A WASI command that returns from _start exits with status 0.
    post(wasi !== undefined ? wasi.exit(0) : { t: 'done', output, returned: d.returnsI32 ? Number(returned) : null });
  } catch (err) {
    if (err instanceof Stop) return post(err.result);
    if (err instanceof WA.CompileError || err instanceof WA.LinkError) return post({ t: 'invalid', message: err.message });
    const fuel = instance?.exports.skillctl_fuel;
    const exhausted = fuel instanceof WA.Global && ((fuel as { value: bigint }).value) < 0n;
    post({ t: 'trap', message: err instanceof Error ? err.message : String(err), fuel: exhausted });
  }
}
