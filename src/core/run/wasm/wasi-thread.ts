/**
 * WASI preview 1 in the module's thread: the import object `wasi_snapshot_preview1`. What needs
 * nothing of the host is answered here: the arguments and environment the run passes, stdin (the
 * run's input), stdout and stderr (captured, stdout within the run's output limit), proc_exit,
 * sched_yield, and the refusals (clocks, randomness, polling, sockets: ERRNO_NOTCAPABLE). Every
 * file call is forwarded to the run's thread, which holds the descriptor table and answers
 * through the gate (wasi-fs.ts); this side only moves bytes between the guest's memory and the
 * answer, each pointer and length checked against that memory (wasi-guest-memory.ts; out of
 * bounds: ERRNO_FAULT).
 *
 * Like thread.ts, this function runs from its source text inside the module's thread, so it
 * refers to nothing outside itself (the guest's memory is read through the function it is
 * handed, from its own text too): the numbers of the ABI are literals here (wasi-abi.ts names
 * them for the host side).
 */
import type { guestMemory } from './wasi-guest-memory.js';
import type { WasiAnswer, WasiRequest } from './wasi-wire.js';

/** How the module's run ended, as far as WASI says: its exit status and what it printed. */
export interface WasiExit {
  readonly t: 'exit';
  readonly code: number;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly stderrTruncated: boolean;
}

export interface WasiThreadContext {
  /** The guest's bytes [ptr, ptr+len), or undefined when any of them is outside its memory. */
  readonly mem: (ptr: number, len: number) => Uint8Array | undefined;
  /** The guest's UTF-8 text there, or undefined (out of bounds, or not UTF-8). */
  readonly text: (ptr: number, len: number) => string | undefined;
  /** Forwards a file call to the run's thread and waits for its answer. */
  readonly ask: (req: WasiRequest) => WasiAnswer;
  /** Ends the run (proc_exit, or stdout past the limit): throws through the module's frames. */
  readonly stop: (r: WasiExit | { readonly t: 'output_limit'; readonly size: number }) => never;
  readonly input: Uint8Array;
  readonly args: readonly string[];
  /** `NAME=value` strings. */
  readonly env: readonly string[];
  readonly maxOutputBytes: number;
  readonly maxStderrBytes: number;
  /** A file write larger than this is checked by the host before its bytes are copied (wasi-abi.ts). */
  readonly uncheckedWriteBytes: number;
  /** Charges fuel for `bytes` moved between the guest's memory and the host (thread.ts); throws past the budget. */
  readonly pay: (bytes: number) => void;
  /** Charges fuel for the levels of a path the host walks (thread.ts); throws past the budget. */
  readonly payPath: (path: string) => void;
}

export interface WasiImports {
  readonly imports: Record<string, (...args: never[]) => unknown>;
  /** The exit of a module whose `_start` returned: status 0. */
  readonly exit: (code: number) => WasiExit;
}

/** `memoryOf` is wasi-guest-memory.ts's guestMemory, passed in as text beside this function's. */
export function wasiImports(c: WasiThreadContext, memoryOf: typeof guestMemory): WasiImports {
  // errnos of preview 1
  const SUCCESS = 0;
  const BADF = 8;
  const FAULT = 21;
  const INVAL = 28;
  const SPIPE = 70;
  const NAMETOOLONG = 37;
  const NOTCAPABLE = 76;
  // PATH_MAX_BYTES (policy/paths.ts): no file has a longer path. Such a path is answered here,
  // neither decoded nor sent: 8 MB of it took each call 0.15 s, on one unit of fuel in 64 bytes.
  const PATH_MAX = 4095;
  const enc = new TextEncoder();
  const args = c.args.map((a) => enc.encode(a));
  const env = c.env.map((e) => enc.encode(e));
  const stdout: Uint8Array[] = [];
  let stdoutSize = 0;
  const stderr: Uint8Array[] = [];
  let stderrSize = 0;
  let stderrTruncated = false;
  let stdinAt = 0;
  /** stdin, stdout and stderr, until the module closes them. */
  const std = new Set([0, 1, 2]);

  const exit = (code: number): WasiExit => ({ t: 'exit', code, stdout: Buffer.concat(stdout, stdoutSize), stderr: Buffer.concat(stderr, stderrSize), stderrTruncated });
  const { mem, text } = c;
  // Fuel for each call forwarded to the run's thread, 1,024 units (as 64 KiB of bytes moved): a
  // message there and back, and the host's answer, 50 to 250 µs. Paid nothing, a loop of fd_seek
  // on a preopen ran its dozen instructions a call until the deadline; now the default budget
  // makes at most about 10,000 such calls.
  const HOSTCALL_FUEL = 1024;
  const ask = (req: WasiRequest): WasiAnswer => {
    c.pay(HOSTCALL_FUEL * 64);
    return c.ask(req);
  };
  const { view, putU32, putU64, iovecs, scatter, total } = memoryOf(mem);

  /** The strings and their sizes, for args_* and environ_*. */
  const list = (items: readonly Uint8Array[]) => ({
    sizes: (countPtr: number, sizePtr: number): number => (putU32(countPtr, items.length) && putU32(sizePtr, total(items) + items.length) ? SUCCESS : FAULT),
    get: (ptrs: number, buf: number): number => {
      let at = buf;
      for (const [i, s] of items.entries()) {
        const dst = mem(at, s.length + 1);
        if (dst === undefined || !putU32(ptrs + i * 4, at)) return FAULT;
        dst.set(s);
        dst[s.length] = 0;
        at += s.length + 1;
      }
      return SUCCESS;
    },
  });
  const argList = list(args);
  const envList = list(env);

  /** A forwarded call whose answer's bytes go to the guest at `ptr` (exactly `len` of them when given). */
  const intoMemory = (req: WasiRequest, ptr: number, len?: number): number => {
    const a = ask(req);
    if (a.errno !== SUCCESS) return a.errno;
    const data = a.data ?? new Uint8Array(0);
    if (len !== undefined && data.length > len) return INVAL;
    const dst = mem(ptr, data.length);
    if (dst === undefined) return FAULT;
    c.pay(data.length);
    dst.set(data);
    return SUCCESS;
  };
  const errnoOnly = (req: WasiRequest): number => ask(req).errno;
  /** A resize: its answer's value is the bytes the host allocated or cleared, paid as bytes moved. */
  const sized = (req: WasiRequest): number => {
    const a = ask(req);
    c.pay(Number(a.value ?? 0n));
    return a.errno;
  };
  const pathArg = (ptr: number, len: number): string | undefined => {
    const path = text(ptr, len);
    if (path !== undefined) c.payPath(path);
    return path;
  };
  const tooLong = (...lens: number[]): boolean => lens.some((n) => n > PATH_MAX);

  // Fuel for each iovec of an fd_write or fd_read (at most 1,024 are read), sixteen units as a
  // table element pays: decoded, checked and sliced here one by one, a loop of 1,024 empty ones
  // moved no byte and paid a dozen instructions a call, so only the deadline stopped it.
  const IOVEC_FUEL = 16;
  const payIovecs = (count: number): void => c.pay(Math.min(count >>> 0, 1024) * IOVEC_FUEL * 64);

  const write = (fd: number, iovs: number, count: number, nwritten: number, offset?: bigint): number => {
    payIovecs(count);
    const bufs = iovecs(iovs, count);
    if (bufs === undefined || view(nwritten, 4) === undefined) return FAULT;
    const size = total(bufs);
    if (std.has(fd) && (fd === 1 || fd === 2)) {
      if (offset !== undefined) return SPIPE;
      if (fd === 1) {
        if (stdoutSize + size > c.maxOutputBytes) c.stop({ t: 'output_limit', size: stdoutSize + size });
        c.pay(size);
        // An empty piece is not kept: stdout's list grows with its bytes only.
        for (const b of bufs) if (b.length > 0) stdout.push(b.slice());
        stdoutSize += size;
      } else {
        for (const b of bufs) {
          const room = c.maxStderrBytes - stderrSize;
          if (b.length > room) stderrTruncated = true;
          const keep = b.subarray(0, Math.max(0, room)).slice();
          if (keep.length > 0) stderr.push(keep);
          stderrSize += keep.length;
        }
      }
      putU32(nwritten, size);
      return SUCCESS;
    }
    if (std.has(fd)) return BADF;
    // iovecs may all name the same megabytes of the guest's memory: copied before the descriptor was
    // known, 1024 of them made gigabytes of host memory that no grant covers. The table is the
    // host's, so a larger write is checked there (descriptor, rights, file bound) before any copy.
    const at = offset !== undefined ? { offset } : {};
    const checked = size > c.uncheckedWriteBytes ? ask({ op: 'wasi', call: 'fd_write_check', fd, size, ...at }).errno : SUCCESS;
    if (checked !== SUCCESS) return checked;
    // Paid once the host takes the write, for the bytes then copied (never for iovecs it refused).
    c.pay(size);
    const a = ask({ op: 'wasi', call: 'fd_write', fd, data: Buffer.concat(bufs, size), ...at });
    if (a.errno === SUCCESS) putU32(nwritten, Number(a.value ?? 0n));
    return a.errno;
  };

  const read = (fd: number, iovs: number, count: number, nread: number, offset?: bigint): number => {
    payIovecs(count);
    const bufs = iovecs(iovs, count);
    if (bufs === undefined || view(nread, 4) === undefined) return FAULT;
    if (std.has(fd)) {
      if (fd !== 0) return BADF;
      if (offset !== undefined) return SPIPE;
      const n = scatter(bufs, c.input.subarray(stdinAt));
      c.pay(n);
      stdinAt += n;
      putU32(nread, n);
      return SUCCESS;
    }
    const a = ask({ op: 'wasi', call: 'fd_read', fd, max: total(bufs), ...(offset !== undefined ? { offset } : {}) });
    if (a.errno !== SUCCESS) return a.errno;
    c.pay(a.data?.length ?? 0);
    putU32(nread, scatter(bufs, a.data ?? new Uint8Array(0)));
    return SUCCESS;
  };

  const imports: Record<string, (...a: never[]) => unknown> = {
    args_sizes_get: argList.sizes,
    args_get: argList.get,
    environ_sizes_get: envList.sizes,
    environ_get: envList.get,
    // No clock and no randomness are granted (as for the provenact calls): the module is told so.
    clock_res_get: (): number => NOTCAPABLE,
    clock_time_get: (): number => NOTCAPABLE,
    random_get: (): number => NOTCAPABLE,
    poll_oneoff: (): number => NOTCAPABLE,
    sched_yield: (): number => SUCCESS,
    sock_accept: (): number => NOTCAPABLE,
    sock_recv: (): number => NOTCAPABLE,
    sock_send: (): number => NOTCAPABLE,
    sock_shutdown: (): number => NOTCAPABLE,
    proc_exit: (code: number): never => c.stop(exit(code >>> 0)),
    fd_write: (fd: number, iovs: number, count: number, n: number): number => write(fd, iovs, count, n),
    fd_pwrite: (fd: number, iovs: number, count: number, offset: bigint, n: number): number => write(fd, iovs, count, n, offset),
    fd_read: (fd: number, iovs: number, count: number, n: number): number => read(fd, iovs, count, n),
    fd_pread: (fd: number, iovs: number, count: number, offset: bigint, n: number): number => read(fd, iovs, count, n, offset),
    fd_seek: (fd: number, offset: bigint, whence: number, out: number): number => {
      if (std.has(fd)) return SPIPE;
      if (view(out, 8) === undefined) return FAULT;
      const a = ask({ op: 'wasi', call: 'fd_seek', fd, offset, whence });
      if (a.errno === SUCCESS) putU64(out, a.value ?? 0n);
      return a.errno;
    },
    fd_tell: (fd: number, out: number): number => {
      if (std.has(fd)) return SPIPE;
      if (view(out, 8) === undefined) return FAULT;
      const a = ask({ op: 'wasi', call: 'fd_seek', fd, offset: 0n, whence: 1 });
      if (a.errno === SUCCESS) putU64(out, a.value ?? 0n);
      return a.errno;
    },
    fd_close: (fd: number): number => (std.delete(fd) ? SUCCESS : errnoOnly({ op: 'wasi', call: 'fd_close', fd })),
    fd_sync: (fd: number): number => (std.has(fd) ? SUCCESS : errnoOnly({ op: 'wasi', call: 'fd_sync', fd })),
    fd_datasync: (fd: number): number => (std.has(fd) ? SUCCESS : errnoOnly({ op: 'wasi', call: 'fd_datasync', fd })),
    fd_advise: (fd: number): number => (std.has(fd) ? SUCCESS : errnoOnly({ op: 'wasi', call: 'fd_advise', fd })),
    fd_allocate: (fd: number, offset: bigint, len: bigint): number => (std.has(fd) ? BADF : sized({ op: 'wasi', call: 'fd_allocate', fd, offset, len })),
    fd_filestat_set_size: (fd: number, size: bigint): number => (std.has(fd) ? BADF : sized({ op: 'wasi', call: 'fd_filestat_set_size', fd, size })),
    fd_fdstat_get: (fd: number, out: number): number => {
      if (std.has(fd)) {
        // An unknown file type (not a terminal), stdin readable, stdout and stderr writable.
        const d = view(out, 24);
        if (d === undefined) return FAULT;
        new Uint8Array(d.buffer, d.byteOffset, 24).fill(0);
        d.setBigUint64(8, fd === 0 ? 1n << 1n : 1n << 6n, true);
        return SUCCESS;
      }
      return intoMemory({ op: 'wasi', call: 'fd_fdstat_get', fd }, out, 24);
    },
    fd_filestat_get: (fd: number, out: number): number => {
      if (std.has(fd)) {
        const b = mem(out, 64);
        if (b === undefined) return FAULT;
        b.fill(0);
        return SUCCESS;
      }
      return intoMemory({ op: 'wasi', call: 'fd_filestat_get', fd }, out, 64);
    },
    fd_prestat_get: (fd: number, out: number): number => {
      if (std.has(fd)) return BADF;
      const d = view(out, 8);
      if (d === undefined) return FAULT;
      const a = ask({ op: 'wasi', call: 'fd_prestat_get', fd });
      if (a.errno !== SUCCESS) return a.errno;
      d.setUint32(0, 0, true); // the tag: a directory
      d.setUint32(4, a.data?.length ?? 0, true);
      return SUCCESS;
    },
    fd_prestat_dir_name: (fd: number, ptr: number, len: number): number => (std.has(fd) ? BADF : intoMemory({ op: 'wasi', call: 'fd_prestat_dir_name', fd }, ptr, len)),
    fd_readdir: (fd: number, buf: number, len: number, cookie: bigint, used: number): number => {
      if (std.has(fd)) return BADF;
      if (mem(buf, len) === undefined || view(used, 4) === undefined) return FAULT;
      const a = ask({ op: 'wasi', call: 'fd_readdir', fd, cookie, max: len });
      if (a.errno !== SUCCESS) return a.errno;
      const data = a.data ?? new Uint8Array(0);
      c.pay(data.length);
      mem(buf, data.length)?.set(data);
      putU32(used, data.length);
      return SUCCESS;
    },
    path_open: (fd: number, dirflags: number, p: number, plen: number, oflags: number, rightsBase: bigint, rightsInheriting: bigint, fdflags: number, out: number): number => {
      if (tooLong(plen)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      if (path === undefined || view(out, 4) === undefined) return path === undefined && mem(p, plen) !== undefined ? INVAL : FAULT;
      const a = ask({ op: 'wasi', call: 'path_open', fd, follow: (dirflags & 1) !== 0, path, oflags, rightsBase, rightsInheriting, fdflags });
      if (a.errno === SUCCESS) putU32(out, Number(a.value ?? 0n));
      return a.errno;
    },
    path_filestat_get: (fd: number, flags: number, p: number, plen: number, out: number): number => {
      if (tooLong(plen)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      if (path === undefined || mem(out, 64) === undefined) return FAULT;
      return intoMemory({ op: 'wasi', call: 'path_filestat_get', fd, follow: (flags & 1) !== 0, path }, out, 64);
    },
    path_create_directory: (fd: number, p: number, plen: number): number => {
      if (tooLong(plen)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      return path === undefined ? FAULT : errnoOnly({ op: 'wasi', call: 'path_create_directory', fd, path });
    },
    path_unlink_file: (fd: number, p: number, plen: number): number => {
      if (tooLong(plen)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      return path === undefined ? FAULT : errnoOnly({ op: 'wasi', call: 'path_unlink_file', fd, path });
    },
    path_remove_directory: (fd: number, p: number, plen: number): number => {
      if (tooLong(plen)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      return path === undefined ? FAULT : errnoOnly({ op: 'wasi', call: 'path_remove_directory', fd, path });
    },
    path_rename: (fd: number, p: number, plen: number, fd2: number, p2: number, p2len: number): number => {
      if (tooLong(plen, p2len)) return NAMETOOLONG;
      const path = pathArg(p, plen);
      const path2 = pathArg(p2, p2len);
      return path === undefined || path2 === undefined ? FAULT : errnoOnly({ op: 'wasi', call: 'path_rename', fd, path, fd2, path2 });
    },
  };
  return { imports, exit };
}
