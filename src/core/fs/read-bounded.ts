/**
 * The one way skillctl reads a file a user, a repository or a lock names: bounded in size and
 * kind. A FIFO blocks a reader forever, `/dev/zero` never ends, a socket or a tape device can
 * act on being opened, and a regular file can be any size: so the kind is checked before the
 * file is opened (stat, or lstat when a link is not wanted), the open itself cannot block
 * (O_NONBLOCK) or follow a link swapped in meanwhile (O_NOFOLLOW), the opened descriptor is
 * checked again (fstat), and at most `maxBytes + 1` bytes are ever read, so "too large" is
 * known without reading the rest. Results, not exceptions: each caller names the refusal with
 * its own code (MANIFEST_TOO_LARGE, LOCK_UNREADABLE...), or with `refusalCode`.
 */
import { constants, type Stats } from 'node:fs';
import { diag, type Code, type Diagnostic } from '../diagnostics.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { closeFd, fstat, lstat, openFd, readAt, stat } from './callback-fs.js';

/** What a path turned out to be, in the words messages use. */
export type FileKind = 'regular file' | 'directory' | 'symbolic link' | 'FIFO' | 'socket' | 'character device' | 'block device' | 'special file';

export interface ReadBoundedOptions {
  /** Read at most this many bytes; a longer file is refused without reading the rest. */
  readonly maxBytes: number;
  /** Follow a symbolic link in the last component (default true); false refuses the link. */
  readonly followLinks?: boolean;
}

export type BoundedRead =
  /** `mode` and `mtimeMs`: the opened file's, as fstat gave them. */
  | { readonly ok: true; readonly bytes: Buffer; readonly mode: number; readonly mtimeMs: number }
  | { readonly ok: false; readonly reason: 'missing'; readonly errno: string }
  | { readonly ok: false; readonly reason: 'not-regular'; readonly kind: FileKind }
  /** `size`: the size fstat gave, or (a file growing or lying about its size) a lower bound. */
  | { readonly ok: false; readonly reason: 'too-large'; readonly size: number; readonly maxBytes: number }
  | { readonly ok: false; readonly reason: 'unreadable'; readonly errno: string };

export type BoundedRefusal = Exclude<BoundedRead, { ok: true }>;

export function kindOf(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): FileKind {
  if (st.isFile()) return 'regular file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symbolic link';
  if (st.isFIFO()) return 'FIFO';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isBlockDevice()) return 'block device';
  return 'special file';
}

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one (and a
// FIFO swapped in after the stat is then refused by fstat). It changes nothing for regular files.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const NOFOLLOW_FLAGS = READ_FLAGS | constants.O_NOFOLLOW;

function failed(err: unknown, follow: boolean): BoundedRefusal {
  const errno = errnoCode(err) ?? String(err);
  if (errno === 'ENOENT' || errno === 'ENOTDIR') return { ok: false, reason: 'missing', errno };
  // O_NOFOLLOW on a link; EISDIR opening a directory; ENXIO opening a socket or a FIFO with O_WRONLY.
  if (errno === 'ELOOP' && !follow) return { ok: false, reason: 'not-regular', kind: 'symbolic link' };
  if (errno === 'EISDIR') return { ok: false, reason: 'not-regular', kind: 'directory' };
  if (errno === 'ENXIO') return { ok: false, reason: 'not-regular', kind: 'special file' };
  return { ok: false, reason: 'unreadable', errno };
}

function tooLarge(size: number, maxBytes: number): BoundedRefusal {
  return { ok: false, reason: 'too-large', size, maxBytes };
}

/**
 * Collects what reads return, one byte past the bound at most: that one byte tells "too large"
 * from "exactly at the bound". Files under /proc report size 0, so fstat's size only sizes the
 * first buffer.
 */
class Collector {
  buf: Buffer;
  filled = 0;
  constructor(
    private readonly st: Stats,
    private readonly maxBytes: number,
  ) {
    this.buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(st.size + 1, 64 * 1024)));
  }
  /** Makes room for the next read; false once more than `maxBytes` were read. */
  room(): boolean {
    if (this.filled < this.buf.length) return true;
    if (this.buf.length > this.maxBytes) return false;
    const grown = Buffer.allocUnsafe(Math.min(this.maxBytes + 1, this.buf.length * 2));
    this.buf.copy(grown, 0, 0, this.filled);
    this.buf = grown;
    return true;
  }
  result(): BoundedRead {
    return this.filled > this.maxBytes ? tooLarge(this.filled, this.maxBytes) : { ok: true, bytes: this.buf.subarray(0, this.filled), mode: this.st.mode, mtimeMs: this.st.mtimeMs };
  }
}

function checked(st: Stats, maxBytes: number): BoundedRefusal | undefined {
  if (!st.isFile()) return { ok: false, reason: 'not-regular', kind: kindOf(st) };
  return st.size > maxBytes ? tooLarge(st.size, maxBytes) : undefined;
}

/** Reads `path` as described in the module comment. Never throws for what the file system says. */
export async function readBounded(path: string, opts: ReadBoundedOptions): Promise<BoundedRead> {
  const follow = opts.followLinks ?? true;
  let fd: number;
  try {
    const refused = checked(follow ? await stat(path) : await lstat(path), opts.maxBytes);
    if (refused !== undefined) return refused;
    fd = await openFd(path, follow ? READ_FLAGS : NOFOLLOW_FLAGS);
  } catch (err) {
    return failed(err, follow);
  }
  try {
    const st = await fstat(fd);
    const refused = checked(st, opts.maxBytes);
    if (refused !== undefined) return refused;
    const c = new Collector(st, opts.maxBytes);
    while (c.room()) {
      const n = await readAt(fd, c.buf, c.filled, c.buf.length - c.filled, c.filled);
      if (n === 0) break;
      c.filled += n;
    }
    return c.result();
  } catch (err) {
    return failed(err, follow);
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

/** The catalogue code for a refusal, for callers without a code of their own. */
export function refusalCode(r: BoundedRefusal): 'INPUT_NOT_FOUND' | 'INPUT_NOT_REGULAR_FILE' | 'INPUT_UNREADABLE' {
  switch (r.reason) {
    case 'missing':
      return 'INPUT_NOT_FOUND';
    case 'not-regular':
      return 'INPUT_NOT_REGULAR_FILE';
    case 'too-large':
    case 'unreadable':
      return 'INPUT_UNREADABLE';
    default: {
      const never: never = r;
      return never;
    }
  }
}

/** A sentence about the refusal, naming the file as `label`. */
export function describeRefusal(r: BoundedRefusal, label: string): string {
  switch (r.reason) {
    case 'missing':
      return `${label} does not exist`;
    case 'not-regular':
      return `${label} is a ${r.kind}, not a regular file; only regular files are read`;
    case 'too-large':
      return `${label} exceeds ${r.maxBytes} bytes`;
    case 'unreadable':
      return `cannot read ${label}: ${r.errno}`;
    default: {
      const never: never = r;
      return never;
    }
  }
}

/**
 * The bytes of `path` (named `label` in messages), or a SkillctlError with `refusalCode`'s code:
 * for files named on the command line, where an unreadable input stops the command.
 */
export async function readInputFile(path: string, label: string, opts: ReadBoundedOptions): Promise<Buffer> {
  const r = await readBounded(path, opts);
  if (r.ok) return r.bytes;
  throw new SkillctlError(refusalCode(r), describeRefusal(r, label));
}

/**
 * The refusal as one diagnostic about `label`. `tooLarge` names the code of a size refusal where
 * the document has a bound of its own (MANIFEST_TOO_LARGE...); others get `refusalCode`'s.
 */
export function refusalDiagnostic(r: BoundedRefusal, label: string, tooLarge?: Code): Diagnostic {
  const code = r.reason === 'too-large' && tooLarge !== undefined ? tooLarge : refusalCode(r);
  const hint = r.reason === 'not-regular' ? 'name a regular file, or `-` to read standard input' : undefined;
  return diag(code, describeRefusal(r, label), { file: label, ...(hint !== undefined ? { hint } : {}) });
}

/** A refusal thrown as readInputFile throws it. */
function refusalError(r: BoundedRefusal, label: string): SkillctlError {
  return new SkillctlError(refusalCode(r), describeRefusal(r, label));
}

/**
 * The bytes of `path` a piece at a time, for a reader that goes through a file of any size without
 * holding it (an audit log, verified line by line): the kind checked as readBounded checks it, and
 * the same errors as readInputFile, the first before any piece. Pieces are fresh buffers each.
 */
export async function* readInputPieces(path: string, label: string, pieceBytes = 1024 * 1024): AsyncGenerator<Buffer> {
  let fd: number;
  try {
    const refused = checked(await stat(path), Infinity);
    if (refused !== undefined) throw refusalError(refused, label);
    fd = await openFd(path, READ_FLAGS);
  } catch (err) {
    throw err instanceof SkillctlError ? err : refusalError(failed(err, true), label);
  }
  try {
    const refused = checked(await fstat(fd), Infinity);
    if (refused !== undefined) throw refusalError(refused, label);
    for (let at = 0; ; ) {
      const buf = Buffer.allocUnsafe(pieceBytes);
      let n: number;
      try {
        n = await readAt(fd, buf, 0, pieceBytes, at);
      } catch (err) {
        throw refusalError(failed(err, true), label);
      }
      if (n === 0) return;
      at += n;
      yield buf.subarray(0, n);
    }
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}
