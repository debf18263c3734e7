/**
 * The descriptor table of a WASI run. It lives in the run's host side, not in the module: the
 * module holds numbers, and what each number names (a directory with its grant and rights, or an
 * open file's buffer) is known only here. The table is bounded in descriptors (WASI_MAX_FDS) and
 * in the bytes its open files hold together (WASI_MAX_OPEN_BYTES), so a module cannot make the
 * host hold more than that whatever it opens.
 */
import type { CheckedFs, RecordingGate } from '../../policy/index.js';
import { DIR_READ_RIGHTS, DIR_WRITE_RIGHTS, ERRNO, FILE_READ_RIGHTS, FILE_WRITE_RIGHTS, FIRST_PREOPEN_FD, WASI_MAX_FDS, WASI_MAX_OPEN_BYTES } from './wasi-abi.js';
import { err, type WasiAnswer } from './wasi-wire.js';

/** A directory granted to the run: fs.read, fs.write, or both. */
export interface Preopen {
  readonly path: string;
  readonly read: boolean;
  readonly write: boolean;
}

export interface DirFd {
  readonly kind: 'dir';
  readonly real: string;
  /** Set on a preopened directory: the name fd_prestat_dir_name gives. */
  readonly preopen?: string;
  readonly read: boolean;
  readonly write: boolean;
  readonly rights: bigint;
  readonly inheriting: bigint;
}

export interface FileFd {
  readonly kind: 'file';
  readonly real: string;
  /** The checked directory it is committed to, and its name there. */
  readonly parent: string;
  readonly name: string;
  data: Buffer;
  size: number;
  pos: number;
  dirty: boolean;
  readonly append: boolean;
  readonly rights: bigint;
}

export type Fd = DirFd | FileFd;

export class FdTable {
  private readonly fds = new Map<number, Fd>();
  /** The bytes all open files' buffers hold. */
  private held = 0;

  constructor(preopens: readonly Preopen[]) {
    for (const [i, p] of preopens.entries()) {
      const rights = DIR_READ_RIGHTS | (p.write ? DIR_WRITE_RIGHTS : 0n);
      const inheriting = rights | FILE_READ_RIGHTS | (p.write ? FILE_WRITE_RIGHTS : 0n);
      this.fds.set(FIRST_PREOPEN_FD + i, { kind: 'dir', real: p.path, preopen: p.path, read: p.read, write: p.write, rights, inheriting });
    }
  }

  get(fd: number): Fd | undefined {
    return this.fds.get(fd);
  }

  /** The lowest free number for `fd`; undefined when the table is full. */
  place(fd: Fd): number | undefined {
    if (this.fds.size >= WASI_MAX_FDS) return undefined;
    let n = FIRST_PREOPEN_FD;
    while (this.fds.has(n)) n++;
    this.fds.set(n, fd);
    return n;
  }

  /** Takes `fd` out of the table; a file's buffer is no longer held. */
  remove(fd: number): Fd | undefined {
    const f = this.fds.get(fd);
    if (f === undefined) return undefined;
    this.fds.delete(fd);
    if (f.kind === 'file') this.release(f.data.length);
    return f;
  }

  /** Counts `more` bytes as held; false (and nothing counted) past the bound. */
  hold(more: number): boolean {
    if (this.held + more > WASI_MAX_OPEN_BYTES) return false;
    this.held += more;
    return true;
  }

  /** Whether `more` bytes could be held. */
  fits(more: number): boolean {
    return this.held + more <= WASI_MAX_OPEN_BYTES;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }

  /** A file's buffer was counted, and the file is not placed after all: releases it, gives `errno`. */
  unhold(bytes: number, errno: number): WasiAnswer {
    this.release(bytes);
    return err(errno);
  }

  dirOf(fd: number): DirFd | WasiAnswer {
    const d = this.fds.get(fd);
    if (d === undefined) return err(ERRNO.BADF);
    return d.kind === 'dir' ? d : err(ERRNO.NOTDIR);
  }

  /** An open file whose rights include `right`. */
  fileOf(fd: number, right: bigint): FileFd | WasiAnswer {
    const f = this.fds.get(fd);
    if (f === undefined) return err(ERRNO.BADF);
    if (f.kind === 'dir') return err(ERRNO.ISDIR);
    return (f.rights & right) === 0n ? err(ERRNO.NOTCAPABLE) : f;
  }

  /** Every open file with unwritten changes. */
  dirtyFiles(): FileFd[] {
    return [...this.fds.values()].filter((f): f is FileFd => f.kind === 'file' && f.dirty);
  }
}

/** What every host-side WASI call works with: the gate that records, the checked layer, the table. */
export interface WasiHost {
  readonly gate: RecordingGate;
  readonly files: CheckedFs;
  readonly table: FdTable;
}
