/**
 * The guest's memory as WASI preview 1 reads and writes it in the module's thread: little-endian
 * results at a pointer, iovec arrays, and bytes scattered over buffers. Each pointer and length is
 * checked against that memory; out of bounds gives undefined (or false), which the calls of
 * wasi-thread.ts answer with ERRNO_FAULT.
 *
 * Like wasi-thread.ts, this function runs from its source text inside the module's thread
 * (thread-source.ts hands it to wasiImports), so it refers to nothing outside itself.
 */

export interface GuestMemory {
  /** A DataView of the guest's bytes [ptr, ptr+len), or undefined when any is outside its memory. */
  readonly view: (ptr: number, len: number) => DataView | undefined;
  /** Writes a little-endian u32 at `ptr`; false when out of bounds. */
  readonly putU32: (ptr: number, v: number) => boolean;
  /** Writes a little-endian u64 at `ptr`; false when out of bounds. */
  readonly putU64: (ptr: number, v: bigint) => boolean;
  /** The (ptr, len) pairs of an iovec array, each checked; undefined when any is out of bounds. */
  readonly iovecs: (iovs: number, count: number) => Uint8Array[] | undefined;
  /** Scatters `data` over the buffers; returns how many bytes were placed. */
  readonly scatter: (bufs: readonly Uint8Array[], data: Uint8Array) => number;
  /** The total length of the buffers. */
  readonly total: (bufs: readonly Uint8Array[]) => number;
}

/** `mem` is the context's (wasi-thread.ts): the guest's bytes there, or undefined. */
export function guestMemory(mem: (ptr: number, len: number) => Uint8Array | undefined): GuestMemory {
  const view = (ptr: number, len: number): DataView | undefined => {
    const b = mem(ptr, len);
    return b === undefined ? undefined : new DataView(b.buffer, b.byteOffset, len);
  };
  const putU32 = (ptr: number, v: number): boolean => {
    const d = view(ptr, 4);
    d?.setUint32(0, v, true);
    return d !== undefined;
  };
  const putU64 = (ptr: number, v: bigint): boolean => {
    const d = view(ptr, 8);
    d?.setBigUint64(0, v, true);
    return d !== undefined;
  };
  const iovecs = (iovs: number, count: number): Uint8Array[] | undefined => {
    if (count < 0 || count > 1024) return undefined;
    const d = view(iovs, count * 8);
    if (d === undefined) return undefined;
    const out: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const b = mem(d.getUint32(i * 8, true), d.getUint32(i * 8 + 4, true));
      if (b === undefined) return undefined;
      out.push(b);
    }
    return out;
  };
  const scatter = (bufs: readonly Uint8Array[], data: Uint8Array): number => {
    let at = 0;
    for (const b of bufs) {
      if (at >= data.length) break;
      const n = Math.min(b.length, data.length - at);
      b.set(data.subarray(at, at + n));
      at += n;
    }
    return at;
  };
  const total = (bufs: readonly Uint8Array[]): number => bufs.reduce((n, b) => n + b.length, 0);
  return { view, putU32, putU64, iovecs, scatter, total };
}
