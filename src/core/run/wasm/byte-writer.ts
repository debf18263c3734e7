/**
 * The bytes of a rewritten module, written once into one growable buffer: the rewrite runs on the
 * run's own thread before its deadline starts, so its memory and time must stay proportional to
 * the module (a number per byte and an object per instruction cost 230 times the module's size).
 * Bounded: past `max` bytes it throws ByteLimitError, before it allocates more.
 */
export class ByteLimitError extends Error {
  constructor(readonly max: number) {
    super(`more than ${max} bytes`);
  }
}

export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(
    initial: number,
    private readonly max: number,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(initial, max)));
  }

  private room(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    if (need > this.max) throw new ByteLimitError(this.max);
    const next = new Uint8Array(Math.min(this.max, Math.max(need, this.buf.length * 2)));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  bytes(b: ArrayLike<number>): void {
    this.room(b.length);
    // Most writes are a few bytes (a charge, a short stretch): a loop, without a view per write.
    if (b.length < 32) for (let i = 0; i < b.length; i++) this.buf[this.length + i] = b[i] as number;
    else this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** `src[from, to)`. */
  copy(src: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.room(n);
    if (n < 32) for (let i = 0; i < n; i++) this.buf[this.length + i] = src[from + i] as number;
    else this.buf.set(src.subarray(from, to), this.length);
    this.length += n;
  }

  /** An unsigned LEB128 number. */
  u32(value: number): void {
    let v = value >>> 0;
    do {
      const b = v & 0x7f;
      v >>>= 7;
      this.byte(v !== 0 ? b | 0x80 : b);
    } while (v !== 0);
  }

  /** What was written (a view of the buffer, valid until the next write). */
  result(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** The unsigned LEB128 length of `value`. */
export function u32Length(value: number): number {
  let n = 1;
  for (let v = value >>> 7; v !== 0; v >>>= 7) n++;
  return n;
}
