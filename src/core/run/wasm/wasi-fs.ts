/**
 * The host's side of WASI preview 1's file calls. The descriptor table lives here, in the run's
 * thread, not in the module's: the module holds numbers, and every call that reaches a file goes
 * through the same gate and checked file layer as the built-in skills and the provenact hostcalls
 * (checked-fs.ts). A path is opened as a handle, the kernel says what was opened, and the policy
 * decides about that real path, so a symlink out of the grant, a `..`, an absolute path or a
 * special file is refused (the errno NOTCAPABLE) and the refusal is recorded in the audit trail.
 * Unlike a provenact hostcall a refusal does not stop the module: WASI has an errno for it.
 *
 * A regular file is held in memory while it is open: read whole when opened (at most
 * WASI_MAX_FILE_BYTES), and written whole, atomically (a temporary file in its checked directory,
 * then a rename), when it is created or truncated, synced, closed, and when the module ends by
 * returning or by proc_exit. A run that traps, times out or is refused leaves the files it had
 * open as they were at their last commit. Timestamps are 0 (the clock is not granted) and inode
 * numbers are derived from the real path, so a run sees the same metadata on every machine.
 */
import { createHash } from 'node:crypto';
import { errnoCode } from '../../errors.js';
import { isFailure, type CheckedDir, type CheckedFs, type FsFailure, type RecordingGate } from '../../policy/index.js';
import {
  DIR_READ_RIGHTS,
  DIR_WRITE_RIGHTS,
  ERRNO,
  FDFLAGS,
  FILE_READ_RIGHTS,
  FILE_WRITE_RIGHTS,
  FILETYPE,
  FIRST_PREOPEN_FD,
  OFLAGS,
  RIGHTS,
  WASI_MAX_FDS,
  WASI_MAX_FILE_BYTES,
  WASI_MAX_OPEN_BYTES,
  WHENCE,
} from './wasi-abi.js';

/** A file call the module's thread forwards (stdin, stdout and stderr are answered there). */
export type WasiRequest = { readonly op: 'wasi' } & (
  | { readonly call: 'path_open'; readonly fd: number; readonly follow: boolean; readonly path: string; readonly oflags: number; readonly rightsBase: bigint; readonly rightsInheriting: bigint; readonly fdflags: number }
  | { readonly call: 'fd_read'; readonly fd: number; readonly max: number; readonly offset?: bigint }
  | { readonly call: 'fd_write'; readonly fd: number; readonly data: Uint8Array; readonly offset?: bigint }
  | { readonly call: 'fd_seek'; readonly fd: number; readonly offset: bigint; readonly whence: number }
  | { readonly call: 'fd_close' | 'fd_sync' | 'fd_datasync' | 'fd_advise' | 'fd_fdstat_get' | 'fd_filestat_get' | 'fd_prestat_get' | 'fd_prestat_dir_name'; readonly fd: number }
  | { readonly call: 'fd_allocate'; readonly fd: number; readonly offset: bigint; readonly len: bigint }
  | { readonly call: 'fd_filestat_set_size'; readonly fd: number; readonly size: bigint }
  | { readonly call: 'fd_readdir'; readonly fd: number; readonly cookie: bigint; readonly max: number }
  | { readonly call: 'path_filestat_get'; readonly fd: number; readonly follow: boolean; readonly path: string }
  | { readonly call: 'path_create_directory' | 'path_unlink_file' | 'path_remove_directory'; readonly fd: number; readonly path: string }
  | { readonly call: 'path_rename'; readonly fd: number; readonly path: string; readonly fd2: number; readonly path2: string }
);

/** An errno, and what the call gives back: bytes for the guest's memory, or a number. */
export interface WasiAnswer {
  readonly kind: 'wasi';
  readonly errno: number;
  readonly data?: Uint8Array;
  readonly value?: bigint;
}

/** A directory granted to the run: fs.read, fs.write, or both. */
export interface Preopen {
  readonly path: string;
  readonly read: boolean;
  readonly write: boolean;
}

interface DirFd {
  readonly kind: 'dir';
  readonly real: string;
  /** Set on a preopened directory: the name fd_prestat_dir_name gives. */
  readonly preopen?: string;
  readonly read: boolean;
  readonly write: boolean;
  readonly rights: bigint;
  readonly inheriting: bigint;
}

interface FileFd {
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

type Fd = DirFd | FileFd;

const ok = (extra: { data?: Uint8Array; value?: bigint } = {}): WasiAnswer => ({ kind: 'wasi', errno: ERRNO.SUCCESS, ...extra });
const err = (errno: number): WasiAnswer => ({ kind: 'wasi', errno });

const ERRNO_OF: Readonly<Record<string, number>> = {
  EACCES: ERRNO.ACCES,
  EEXIST: ERRNO.EXIST,
  EINVAL: ERRNO.INVAL,
  EISDIR: ERRNO.ISDIR,
  ELOOP: ERRNO.LOOP,
  ENAMETOOLONG: ERRNO.NAMETOOLONG,
  ENOENT: ERRNO.NOENT,
  ENOSPC: ERRNO.NOSPC,
  ENOTDIR: ERRNO.NOTDIR,
  ENOTEMPTY: ERRNO.NOTEMPTY,
  EPERM: ERRNO.PERM,
  EXDEV: ERRNO.XDEV,
};

function errnoOf(f: FsFailure): number {
  switch (f.kind) {
    case 'denied':
      return ERRNO.NOTCAPABLE;
    case 'missing':
      return ERRNO.NOENT;
    case 'not-dir':
      return ERRNO.NOTDIR;
    case 'not-file':
      return ERRNO.LOOP;
    default:
      return ERRNO_OF[f.code] ?? ERRNO.IO;
  }
}

/** A stable inode number from the real path: the same on every machine, distinct per path. */
function inode(real: string): bigint {
  return createHash('sha256').update(real).digest().readBigUInt64LE(0) & 0x7fff_ffff_ffff_ffffn;
}

/** The 64-byte filestat: dev, ino, filetype, nlink, size, and three timestamps (0). */
function filestat(real: string, filetype: number, size: number): Uint8Array {
  const b = Buffer.alloc(64);
  b.writeBigUInt64LE(inode(real), 8);
  b.writeUInt8(filetype, 16);
  b.writeBigUInt64LE(1n, 24);
  b.writeBigUInt64LE(BigInt(size), 32);
  return b;
}

/** The 24-byte fdstat: filetype, flags, base rights, inheriting rights. */
export function fdstat(filetype: number, flags: number, rights: bigint, inheriting: bigint): Uint8Array {
  const b = Buffer.alloc(24);
  b.writeUInt8(filetype, 0);
  b.writeUInt16LE(flags, 2);
  b.writeBigUInt64LE(rights, 8);
  b.writeBigUInt64LE(inheriting, 16);
  return b;
}

const CONTROL = /[\u0000-\u001f\u007f\\]/;

export interface WasiFs {
  serve(req: WasiRequest): Promise<WasiAnswer>;
  /** Writes every open file with unwritten changes (the module ended by returning or proc_exit). */
  commitAll(): Promise<void>;
}

export function wasiFs(gate: RecordingGate, files: CheckedFs, preopens: readonly Preopen[]): WasiFs {
  const table = new Map<number, Fd>();
  for (const [i, p] of preopens.entries()) {
    const rights = DIR_READ_RIGHTS | (p.write ? DIR_WRITE_RIGHTS : 0n);
    const inheriting = rights | FILE_READ_RIGHTS | (p.write ? FILE_WRITE_RIGHTS : 0n);
    table.set(FIRST_PREOPEN_FD + i, { kind: 'dir', real: p.path, preopen: p.path, read: p.read, write: p.write, rights, inheriting });
  }
  let held = 0;

  const place = (fd: Fd): number | undefined => {
    if (table.size >= WASI_MAX_FDS) return undefined;
    let n = FIRST_PREOPEN_FD;
    while (table.has(n)) n++;
    table.set(n, fd);
    return n;
  };
  const hold = (more: number): boolean => {
    if (held + more > WASI_MAX_OPEN_BYTES) return false;
    held += more;
    return true;
  };
  const scopeOf = (d: DirFd): 'fs.read' | 'fs.write' => (d.read ? 'fs.read' : 'fs.write');

  /**
   * A guest path under a directory descriptor, as a host path for the checked layer; or a
   * refusal the gate has recorded. Absolute paths are refused (WASI paths are relative to their
   * directory); `..`, control characters and backslashes are refused by the gate's own form check.
   */
  async function pathUnder(d: DirFd, path: string, scope: 'fs.read' | 'fs.write'): Promise<{ abs: string; parent: string; name: string | undefined } | WasiAnswer> {
    if (path.startsWith('/')) {
      gate.recordRefusal(scope, 'POLICY_PATH_DENIED', `${scope}: an absolute path given to a WASI directory descriptor; its paths are relative to it`);
      return err(ERRNO.NOTCAPABLE);
    }
    const segments = path.split('/').filter((s) => s !== '' && s !== '.');
    const base = d.real === '/' ? '' : d.real;
    const abs = segments.length === 0 ? d.real : `${base}/${segments.join('/')}`;
    if (segments.includes('..') || CONTROL.test(path)) {
      // Asked through the gate, so the refusal is recorded with the gate's own code and reason.
      await (scope === 'fs.read' ? gate.checkRead(abs) : gate.checkWrite(abs));
      return err(ERRNO.NOTCAPABLE);
    }
    const name = segments.at(-1);
    const parent = segments.length <= 1 ? d.real : `${base}/${segments.slice(0, -1).join('/')}`;
    return { abs, parent, name };
  }

  const special = (scope: 'fs.read' | 'fs.write'): WasiAnswer => {
    gate.recordRefusal(scope, 'POLICY_PATH_DENIED', `${scope}: the path is not a regular file or a directory (a FIFO, device or socket); WASI opens only files and directories`);
    return err(ERRNO.NOTCAPABLE);
  };

  const dirOf = (fd: number): DirFd | WasiAnswer => {
    const d = table.get(fd);
    if (d === undefined) return err(ERRNO.BADF);
    return d.kind === 'dir' ? d : err(ERRNO.NOTDIR);
  };
  const fileOf = (fd: number, right: bigint): FileFd | WasiAnswer => {
    const f = table.get(fd);
    if (f === undefined) return err(ERRNO.BADF);
    if (f.kind === 'dir') return err(ERRNO.ISDIR);
    return (f.rights & right) === 0n ? err(ERRNO.NOTCAPABLE) : f;
  };
  const isAnswer = (v: object): v is WasiAnswer => 'errno' in v;

  /** With `follow` false, a last component that is a symlink: LOOP (as O_NOFOLLOW). */
  async function symlinkAtEnd(parent: string, name: string | undefined, scope: 'fs.read' | 'fs.write'): Promise<boolean> {
    if (name === undefined) return false;
    const pd = await files.openDir(parent, scope);
    if (isFailure(pd)) return false;
    try {
      const st = await pd.lstat(name);
      return !isFailure(st) && st.isSymbolicLink();
    } finally {
      await pd.close();
    }
  }

  async function commit(f: FileFd): Promise<number> {
    const pd = await files.openDir(f.parent, 'fs.write');
    if (isFailure(pd)) return errnoOf(pd);
    try {
      const temp = await pd.writeTemp(f.name, f.data.subarray(0, f.size), 0o644);
      if (typeof temp !== 'string') return errnoOf(temp);
      const moved = await pd.rename(temp, f.name);
      if (moved !== undefined) {
        await pd.remove(temp);
        return errnoOf(moved);
      }
      f.dirty = false;
      return ERRNO.SUCCESS;
    } finally {
      await pd.close();
    }
  }

  async function openRead(d: DirFd, abs: string, wantDir: boolean): Promise<WasiAnswer> {
    const scope = scopeOf(d);
    if (!wantDir) {
      const f = await files.openFile(abs);
      if (!isFailure(f)) {
        try {
          if (f.size > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
          const data = await f.read(WASI_MAX_FILE_BYTES + 1);
          if (data.length > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
          if (!hold(data.length)) return err(ERRNO.NOMEM);
          const cut = f.real.lastIndexOf('/');
          const fd = place({ kind: 'file', real: f.real, parent: f.real.slice(0, Math.max(cut, 1)), name: f.real.slice(cut + 1), data, size: data.length, pos: 0, dirty: false, append: false, rights: FILE_READ_RIGHTS });
          if (fd === undefined) {
            held -= data.length;
            return err(ERRNO.MFILE);
          }
          return ok({ value: BigInt(fd) });
        } finally {
          await f.close();
        }
      }
      if (f.kind !== 'not-file') return err(errnoOf(f));
    }
    // Not a regular file: a directory (open(2) without O_DIRECTORY opens one too), or refused.
    const dir = await files.openDir(abs, scope);
    if (isFailure(dir)) {
      if (dir.kind === 'not-dir') return wantDir ? err(ERRNO.NOTDIR) : special('fs.read');
      return err(errnoOf(dir));
    }
    await dir.close();
    const fd = place({ kind: 'dir', real: dir.real, read: d.read, write: d.write, rights: d.inheriting & (DIR_READ_RIGHTS | DIR_WRITE_RIGHTS), inheriting: d.inheriting });
    return fd === undefined ? err(ERRNO.MFILE) : ok({ value: BigInt(fd) });
  }

  async function openWrite(d: DirFd, req: Extract<WasiRequest, { call: 'path_open' }>, target: { abs: string; parent: string; name: string | undefined }): Promise<WasiAnswer> {
    if (!d.write) {
      gate.recordRefusal('fs.write', 'POLICY_PATH_DENIED', 'fs.write: the directory descriptor is read-only (a preopen of an fs.read grant); it opens nothing to write');
      return err(ERRNO.NOTCAPABLE);
    }
    if (target.name === undefined) return err(ERRNO.ISDIR);
    let parent = target.parent;
    let name = target.name;
    let pd: CheckedDir | FsFailure = await files.openDir(parent, 'fs.write');
    if (isFailure(pd)) return err(errnoOf(pd));
    try {
      let st = await pd.lstat(name);
      if (!isFailure(st) && st.isSymbolicLink()) {
        if (!req.follow) return err(ERRNO.LOOP);
        // Where the link leads, judged by the gate (which records a refusal); then opened from there.
        const decision = await gate.checkWrite(target.abs);
        if (!decision.allowed) return err(ERRNO.NOTCAPABLE);
        const cut = decision.resolved.lastIndexOf('/');
        parent = decision.resolved.slice(0, Math.max(cut, 1));
        name = decision.resolved.slice(cut + 1);
        await pd.close();
        pd = await files.openDir(parent, 'fs.write');
        if (isFailure(pd)) return err(errnoOf(pd));
        st = await pd.lstat(name);
        if (!isFailure(st) && st.isSymbolicLink()) return err(ERRNO.LOOP);
      }
      const exists = !isFailure(st);
      if (isFailure(st) && st.kind !== 'missing') return err(errnoOf(st));
      if (exists && (req.oflags & OFLAGS.CREAT) !== 0 && (req.oflags & OFLAGS.EXCL) !== 0) return err(ERRNO.EXIST);
      if (!exists && (req.oflags & OFLAGS.CREAT) === 0) return err(ERRNO.NOENT);
      if (exists && (st as { isDirectory(): boolean }).isDirectory()) return err(ERRNO.ISDIR);
      if (exists && !(st as { isFile(): boolean }).isFile()) return special('fs.write');
      const size = exists ? (st as { size: number }).size : 0;
      let data: Buffer = Buffer.alloc(0);
      const truncate = !exists || (req.oflags & OFLAGS.TRUNC) !== 0;
      if (!truncate && size > 0) {
        // Its bytes are kept: read them through the layer (fs.read on the file).
        const f = await pd.file(name);
        if (isFailure(f)) return err(errnoOf(f));
        try {
          if (f.size > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
          data = await f.read(WASI_MAX_FILE_BYTES + 1);
          if (data.length > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
        } finally {
          await f.close();
        }
      }
      if (!hold(data.length)) return err(ERRNO.NOMEM);
      const real = `${pd.real === '/' ? '' : pd.real}/${name}`;
      const wanted = req.rightsBase & (FILE_READ_RIGHTS | FILE_WRITE_RIGHTS) & d.inheriting;
      const file: FileFd = { kind: 'file', real, parent: pd.real, name, data, size: data.length, pos: 0, dirty: truncate, append: (req.fdflags & FDFLAGS.APPEND) !== 0, rights: wanted | RIGHTS.FD_WRITE };
      // A created or truncated file exists as such from now on.
      if (file.dirty) {
        const e = await commit(file);
        if (e !== ERRNO.SUCCESS) {
          held -= data.length;
          return err(e);
        }
      }
      const fd = place(file);
      if (fd === undefined) {
        held -= data.length;
        return err(ERRNO.MFILE);
      }
      return ok({ value: BigInt(fd) });
    } finally {
      if (!isFailure(pd)) await pd.close();
    }
  }

  async function pathOpen(req: Extract<WasiRequest, { call: 'path_open' }>): Promise<WasiAnswer> {
    const d = dirOf(req.fd);
    if (isAnswer(d)) return d;
    const wantDir = (req.oflags & OFLAGS.DIRECTORY) !== 0;
    const writing = (req.rightsBase & FILE_WRITE_RIGHTS) !== 0n || (req.oflags & (OFLAGS.CREAT | OFLAGS.TRUNC)) !== 0 || (req.fdflags & FDFLAGS.APPEND) !== 0;
    if (wantDir && (req.oflags & (OFLAGS.CREAT | OFLAGS.TRUNC)) !== 0) return err(ERRNO.INVAL);
    const target = await pathUnder(d, req.path, writing ? 'fs.write' : scopeOf(d));
    if (isAnswer(target)) return target;
    if (writing && !wantDir) return openWrite(d, req, target);
    if (!req.follow && (await symlinkAtEnd(target.parent, target.name, scopeOf(d)))) return err(ERRNO.LOOP);
    return openRead(d, target.abs, wantDir);
  }

  async function pathFilestat(req: Extract<WasiRequest, { call: 'path_filestat_get' }>): Promise<WasiAnswer> {
    const d = dirOf(req.fd);
    if (isAnswer(d)) return d;
    const target = await pathUnder(d, req.path, scopeOf(d));
    if (isAnswer(target)) return target;
    if (!req.follow && (await symlinkAtEnd(target.parent, target.name, scopeOf(d)))) return ok({ data: filestat(target.abs, FILETYPE.SYMBOLIC_LINK, 0) });
    const f = await files.openFile(target.abs);
    if (!isFailure(f)) {
      await f.close();
      return ok({ data: filestat(f.real, FILETYPE.REGULAR_FILE, f.size) });
    }
    if (f.kind !== 'not-file') return err(errnoOf(f));
    const dir = await files.openDir(target.abs, scopeOf(d));
    if (isFailure(dir)) return dir.kind === 'not-dir' ? special('fs.read') : err(errnoOf(dir));
    await dir.close();
    return ok({ data: filestat(dir.real, FILETYPE.DIRECTORY, 0) });
  }

  /** A call on the parent directory of a path, opened to write (create, unlink, remove). */
  async function inParent(fd: number, path: string, act: (pd: CheckedDir, name: string) => Promise<number>): Promise<WasiAnswer> {
    const d = dirOf(fd);
    if (isAnswer(d)) return d;
    if (!d.write) {
      gate.recordRefusal('fs.write', 'POLICY_PATH_DENIED', 'fs.write: the directory descriptor is read-only (a preopen of an fs.read grant)');
      return err(ERRNO.NOTCAPABLE);
    }
    const target = await pathUnder(d, path, 'fs.write');
    if (isAnswer(target)) return target;
    if (target.name === undefined) return err(ERRNO.INVAL);
    const pd = await files.openDir(target.parent, 'fs.write');
    if (isFailure(pd)) return err(errnoOf(pd));
    try {
      return err(await act(pd, target.name));
    } finally {
      await pd.close();
    }
  }
  const done = (f: FsFailure | undefined): number => (f === undefined ? ERRNO.SUCCESS : errnoOf(f));

  async function readdir(req: Extract<WasiRequest, { call: 'fd_readdir' }>): Promise<WasiAnswer> {
    const d = dirOf(req.fd);
    if (isAnswer(d)) return d;
    if (req.cookie < 0n) return err(ERRNO.INVAL);
    const dir = await files.openDir(d.real, scopeOf(d));
    if (isFailure(dir)) return err(errnoOf(dir));
    try {
      const names = (await dir.entries()).map((e) => e.name).sort();
      const parts: Buffer[] = [];
      let size = 0;
      for (let i = Number(req.cookie); i < names.length && size < req.max; i++) {
        const name = names[i] as string;
        const st = await dir.lstat(name);
        const type = isFailure(st) ? FILETYPE.UNKNOWN : st.isSymbolicLink() ? FILETYPE.SYMBOLIC_LINK : st.isDirectory() ? FILETYPE.DIRECTORY : st.isFile() ? FILETYPE.REGULAR_FILE : FILETYPE.UNKNOWN;
        const bytes = Buffer.from(name);
        const head = Buffer.alloc(24);
        head.writeBigUInt64LE(BigInt(i + 1), 0);
        head.writeBigUInt64LE(inode(`${dir.real === '/' ? '' : dir.real}/${name}`), 8);
        head.writeUInt32LE(bytes.length, 16);
        head.writeUInt8(type, 20);
        parts.push(head, bytes);
        size += head.length + bytes.length;
      }
      // A full buffer tells the guest there is more: it asks again from the last whole entry.
      return ok({ data: Buffer.concat(parts).subarray(0, req.max) });
    } finally {
      await dir.close();
    }
  }

  function read(req: Extract<WasiRequest, { call: 'fd_read' }>): WasiAnswer {
    const f = fileOf(req.fd, RIGHTS.FD_READ);
    if (isAnswer(f)) return f;
    // i64 arguments arrive signed: an offset past 2^63 is negative here.
    if (req.offset !== undefined && req.offset < 0n) return err(ERRNO.INVAL);
    const at = req.offset === undefined ? f.pos : Number(req.offset);
    const data = f.data.subarray(Math.min(at, f.size), Math.min(at + req.max, f.size));
    if (req.offset === undefined) f.pos += data.length;
    return ok({ data: Buffer.from(data) });
  }

  /** Grows a file's buffer to `size` bytes (zeros), within the bounds. */
  function grow(f: FileFd, size: number): number {
    if (size > WASI_MAX_FILE_BYTES) return ERRNO.FBIG;
    if (size <= f.data.length) return ERRNO.SUCCESS;
    const capacity = Math.min(WASI_MAX_FILE_BYTES, Math.max(size, f.data.length * 2));
    if (!hold(capacity - f.data.length)) return ERRNO.NOMEM;
    const next = Buffer.alloc(capacity);
    f.data.copy(next, 0, 0, f.size);
    f.data = next;
    return ERRNO.SUCCESS;
  }

  function resize(f: FileFd, size: number): number {
    const e = grow(f, size);
    if (e !== ERRNO.SUCCESS) return e;
    if (size < f.size) f.data.fill(0, size, f.size);
    f.size = size;
    f.dirty = true;
    return ERRNO.SUCCESS;
  }

  function write(req: Extract<WasiRequest, { call: 'fd_write' }>): WasiAnswer {
    const f = fileOf(req.fd, RIGHTS.FD_WRITE);
    if (isAnswer(f)) return f;
    if (req.offset !== undefined && (req.offset < 0n || req.offset > BigInt(WASI_MAX_FILE_BYTES))) return err(req.offset < 0n ? ERRNO.INVAL : ERRNO.FBIG);
    const at = req.offset !== undefined ? Number(req.offset) : f.append ? f.size : f.pos;
    const end = at + req.data.length;
    const e = grow(f, end);
    if (e !== ERRNO.SUCCESS) return err(e);
    f.data.set(req.data, at);
    f.size = Math.max(f.size, end);
    if (req.offset === undefined) f.pos = end;
    f.dirty = true;
    return ok({ value: BigInt(req.data.length) });
  }

  function seek(req: Extract<WasiRequest, { call: 'fd_seek' }>): WasiAnswer {
    const f = table.get(req.fd);
    if (f === undefined) return err(ERRNO.BADF);
    if (f.kind === 'dir') return err(ERRNO.ISDIR);
    const from = req.whence === WHENCE.SET ? 0n : req.whence === WHENCE.CUR ? BigInt(f.pos) : req.whence === WHENCE.END ? BigInt(f.size) : -1n;
    if (from < 0n) return err(ERRNO.INVAL);
    const to = from + req.offset;
    if (to < 0n || to > BigInt(WASI_MAX_FILE_BYTES)) return err(ERRNO.INVAL);
    f.pos = Number(to);
    return ok({ value: to });
  }

  async function close(fd: number): Promise<WasiAnswer> {
    const f = table.get(fd);
    if (f === undefined) return err(ERRNO.BADF);
    table.delete(fd);
    if (f.kind === 'dir') return ok();
    held -= f.data.length;
    return f.dirty ? err(await commit(f)) : ok();
  }

  async function serve(req: WasiRequest): Promise<WasiAnswer> {
    switch (req.call) {
      case 'path_open':
        return pathOpen(req);
      case 'fd_read':
        return read(req);
      case 'fd_write':
        return write(req);
      case 'fd_seek':
        return seek(req);
      case 'fd_close':
        return close(req.fd);
      case 'fd_sync':
      case 'fd_datasync': {
        const f = table.get(req.fd);
        if (f === undefined) return err(ERRNO.BADF);
        return f.kind === 'file' && f.dirty ? err(await commit(f)) : ok();
      }
      case 'fd_advise': {
        const f = table.get(req.fd);
        return f === undefined ? err(ERRNO.BADF) : f.kind === 'dir' ? err(ERRNO.ISDIR) : ok();
      }
      case 'fd_allocate': {
        const f = fileOf(req.fd, RIGHTS.FD_ALLOCATE);
        if (isAnswer(f)) return f;
        const end = req.offset + req.len;
        if (req.offset < 0n || req.len < 0n || end > BigInt(WASI_MAX_FILE_BYTES)) return err(end > BigInt(WASI_MAX_FILE_BYTES) ? ERRNO.FBIG : ERRNO.INVAL);
        return Number(end) > f.size ? err(resize(f, Number(end))) : ok();
      }
      case 'fd_filestat_set_size': {
        const f = fileOf(req.fd, RIGHTS.FD_FILESTAT_SET_SIZE);
        if (isAnswer(f)) return f;
        if (req.size < 0n || req.size > BigInt(WASI_MAX_FILE_BYTES)) return err(req.size < 0n ? ERRNO.INVAL : ERRNO.FBIG);
        return err(resize(f, Number(req.size)));
      }
      case 'fd_fdstat_get': {
        const f = table.get(req.fd);
        if (f === undefined) return err(ERRNO.BADF);
        if (f.kind === 'dir') return ok({ data: fdstat(FILETYPE.DIRECTORY, 0, f.rights, f.inheriting) });
        return ok({ data: fdstat(FILETYPE.REGULAR_FILE, f.append ? FDFLAGS.APPEND : 0, f.rights, 0n) });
      }
      case 'fd_filestat_get': {
        const f = table.get(req.fd);
        if (f === undefined) return err(ERRNO.BADF);
        return ok({ data: f.kind === 'dir' ? filestat(f.real, FILETYPE.DIRECTORY, 0) : filestat(f.real, FILETYPE.REGULAR_FILE, f.size) });
      }
      case 'fd_prestat_get':
      case 'fd_prestat_dir_name': {
        const f = table.get(req.fd);
        if (f === undefined || f.kind !== 'dir' || f.preopen === undefined) return err(ERRNO.BADF);
        return ok({ data: Buffer.from(f.preopen) });
      }
      case 'fd_readdir':
        return readdir(req);
      case 'path_filestat_get':
        return pathFilestat(req);
      case 'path_create_directory':
        return inParent(req.fd, req.path, async (pd, name) => {
          if (!isFailure(await pd.lstat(name))) return ERRNO.EXIST;
          const made = await pd.makeDir(name);
          if (isFailure(made)) return errnoOf(made);
          await made.close();
          return ERRNO.SUCCESS;
        });
      case 'path_unlink_file':
        return inParent(req.fd, req.path, async (pd, name) => {
          const st = await pd.lstat(name);
          if (isFailure(st)) return errnoOf(st);
          return st.isDirectory() ? ERRNO.ISDIR : done(await pd.remove(name));
        });
      case 'path_remove_directory':
        return inParent(req.fd, req.path, async (pd, name) => {
          const st = await pd.lstat(name);
          if (isFailure(st)) return errnoOf(st);
          return st.isDirectory() ? done(await pd.removeDir(name)) : ERRNO.NOTDIR;
        });
      case 'path_rename': {
        const to = dirOf(req.fd2);
        if (isAnswer(to)) return to;
        const dest = await pathUnder(to, req.path2, 'fs.write');
        if (isAnswer(dest)) return dest;
        return inParent(req.fd, req.path, async (pd, name) => {
          if (dest.name === undefined) return ERRNO.INVAL;
          // Within one directory only: the checked layer renames through one directory handle.
          const other = await files.openDir(dest.parent, 'fs.write');
          if (isFailure(other)) return errnoOf(other);
          const same = other.real === pd.real;
          await other.close();
          return same ? done(await pd.rename(name, dest.name)) : ERRNO.XDEV;
        });
      }
      default: {
        const never: never = req;
        return never;
      }
    }
  }

  return {
    async serve(req) {
      try {
        return await serve(req);
      } catch (e) {
        return err(ERRNO_OF[errnoCode(e) ?? ''] ?? ERRNO.IO);
      }
    },
    async commitAll() {
      for (const f of table.values()) if (f.kind === 'file' && f.dirty) await commit(f);
    },
  };
}
