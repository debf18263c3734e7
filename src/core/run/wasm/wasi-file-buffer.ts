/**
 * An open file's content, held in memory while it is open: read whole when opened (at most
 * WASI_MAX_FILE_BYTES), read, written, seeked and resized in its buffer, and written whole,
 * atomically (a temporary file in its checked directory, then a rename), when it is created or
 * truncated, synced, closed, and when the module ends by returning or by proc_exit. A run that
 * traps, times out or is refused leaves the files it had open as they were at their last commit.
 */
import { isFailure, type CheckedDir, type CheckedFs } from '../../policy/index.js';
import { ERRNO, RIGHTS, WASI_MAX_FILE_BYTES, WHENCE } from './wasi-abi.js';
import { errnoOf } from './wasi-errno.js';
import type { FdTable, FileFd } from './wasi-fd-table.js';
import { err, isAnswer, ok, type WasiAnswer, type WasiCall } from './wasi-wire.js';

/** A file's content written beside it (`temp`, in its checked directory `dir`), not yet renamed into place. */
export interface StagedFile {
  readonly f: FileFd;
  readonly dir: CheckedDir;
  readonly temp: string;
}

/** Writes the file whole to a temporary file beside it; the caller renames it (placeFile) or removes it (dropStaged). */
export async function stageFile(files: CheckedFs, f: FileFd): Promise<StagedFile | number> {
  const dir = await files.openDir(f.parent, 'fs.write');
  if (isFailure(dir)) return errnoOf(dir);
  const temp = await dir.writeTemp(f.name, f.data.subarray(0, f.size), 0o644);
  if (typeof temp === 'string') return { f, dir, temp };
  await dir.close();
  return errnoOf(temp);
}

/** Renames a staged file over its name; the temporary file is removed if that fails. Closes its directory. */
export async function placeFile(s: StagedFile): Promise<number> {
  try {
    const moved = await s.dir.rename(s.temp, s.f.name);
    if (moved !== undefined) {
      await s.dir.remove(s.temp);
      return errnoOf(moved);
    }
    s.f.dirty = false;
    return ERRNO.SUCCESS;
  } finally {
    await s.dir.close();
  }
}

/** Removes a staged file that is not to be renamed into place. Closes its directory. */
export async function dropStaged(s: StagedFile): Promise<void> {
  try {
    await s.dir.remove(s.temp);
  } finally {
    await s.dir.close();
  }
}

/** Writes the file whole, atomically: a temporary file beside it, then a rename over it. */
export async function commitFile(files: CheckedFs, f: FileFd): Promise<number> {
  const s = await stageFile(files, f);
  return typeof s === 'number' ? s : placeFile(s);
}

export function readFile(table: FdTable, req: WasiCall<'fd_read'>): WasiAnswer {
  const f = table.fileOf(req.fd, RIGHTS.FD_READ);
  if (isAnswer(f)) return f;
  // i64 arguments arrive signed: an offset past 2^63 is negative here.
  if (req.offset !== undefined && req.offset < 0n) return err(ERRNO.INVAL);
  const at = req.offset === undefined ? f.pos : Number(req.offset);
  const data = f.data.subarray(Math.min(at, f.size), Math.min(at + req.max, f.size));
  if (req.offset === undefined) f.pos += data.length;
  return ok({ data: Buffer.from(data) });
}

/** The buffer a file of `size` bytes needs: its own, or a larger one (doubling, within the file bound). */
function capacityFor(f: FileFd, size: number): number {
  return size <= f.data.length ? f.data.length : Math.min(WASI_MAX_FILE_BYTES, Math.max(size, f.data.length * 2));
}

/** Grows a file's buffer to `size` bytes (zeros), within the bounds. */
function grow(table: FdTable, f: FileFd, size: number): number {
  if (size > WASI_MAX_FILE_BYTES) return ERRNO.FBIG;
  if (size <= f.data.length) return ERRNO.SUCCESS;
  const capacity = capacityFor(f, size);
  if (!table.hold(capacity - f.data.length)) return ERRNO.NOMEM;
  const next = Buffer.alloc(capacity);
  f.data.copy(next, 0, 0, f.size);
  f.data = next;
  return ERRNO.SUCCESS;
}

/**
 * Sets a file's size; the answer's value is the bytes of its buffer the host allocated or cleared,
 * which the module's thread pays fuel for (wasi-thread.ts): paid nothing, a loop setting a file's
 * size to 64 MiB and back to 0 cleared 64 MiB a turn on a dozen instructions, until the deadline.
 */
function resize(table: FdTable, f: FileFd, size: number): WasiAnswer {
  const capacity = f.data.length;
  const e = grow(table, f, size);
  if (e !== ERRNO.SUCCESS) return err(e);
  const cleared = size < f.size ? f.size - size : 0;
  if (cleared > 0) f.data.fill(0, size, f.size);
  f.size = size;
  f.dirty = true;
  return ok({ value: BigInt((f.data.length !== capacity ? f.data.length : 0) + cleared) });
}

/** The file a write to `fd` goes to, and where in it; or why it cannot be written. */
function writeTarget(table: FdTable, fd: number, offset: bigint | undefined): { readonly f: FileFd; readonly at: number } | WasiAnswer {
  const f = table.fileOf(fd, RIGHTS.FD_WRITE);
  if (isAnswer(f)) return f;
  if (offset !== undefined && (offset < 0n || offset > BigInt(WASI_MAX_FILE_BYTES))) return err(offset < 0n ? ERRNO.INVAL : ERRNO.FBIG);
  return { f, at: offset !== undefined ? Number(offset) : f.append ? f.size : f.pos };
}

/**
 * Whether a write of `size` bytes would be taken (fd_write's errnos, nothing changed): asked by
 * the module's thread before it copies a large write out of the guest's memory, since iovecs may
 * name the same bytes a thousand times over.
 */
export function checkWrite(table: FdTable, req: WasiCall<'fd_write_check'>): WasiAnswer {
  const t = writeTarget(table, req.fd, req.offset);
  if (isAnswer(t)) return t;
  const end = t.at + req.size;
  if (end > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
  return table.fits(capacityFor(t.f, end) - t.f.data.length) ? ok() : err(ERRNO.NOMEM);
}

export function writeFile(table: FdTable, req: WasiCall<'fd_write'>): WasiAnswer {
  const t = writeTarget(table, req.fd, req.offset);
  if (isAnswer(t)) return t;
  const { f, at } = t;
  const end = at + req.data.length;
  const e = grow(table, f, end);
  if (e !== ERRNO.SUCCESS) return err(e);
  f.data.set(req.data, at);
  f.size = Math.max(f.size, end);
  if (req.offset === undefined) f.pos = end;
  f.dirty = true;
  return ok({ value: BigInt(req.data.length) });
}

export function seekFile(table: FdTable, req: WasiCall<'fd_seek'>): WasiAnswer {
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

export function allocateFile(table: FdTable, req: WasiCall<'fd_allocate'>): WasiAnswer {
  const f = table.fileOf(req.fd, RIGHTS.FD_ALLOCATE);
  if (isAnswer(f)) return f;
  const end = req.offset + req.len;
  if (req.offset < 0n || req.len < 0n || end > BigInt(WASI_MAX_FILE_BYTES)) return err(end > BigInt(WASI_MAX_FILE_BYTES) ? ERRNO.FBIG : ERRNO.INVAL);
  return Number(end) > f.size ? resize(table, f, Number(end)) : ok();
}

export function setFileSize(table: FdTable, req: WasiCall<'fd_filestat_set_size'>): WasiAnswer {
  const f = table.fileOf(req.fd, RIGHTS.FD_FILESTAT_SET_SIZE);
  if (isAnswer(f)) return f;
  if (req.size < 0n || req.size > BigInt(WASI_MAX_FILE_BYTES)) return err(req.size < 0n ? ERRNO.INVAL : ERRNO.FBIG);
  return resize(table, f, Number(req.size));
}

/** Closes a descriptor; a file with unwritten changes is committed as it closes. */
export async function closeFd(table: FdTable, files: CheckedFs, fd: number): Promise<WasiAnswer> {
  const f = table.remove(fd);
  if (f === undefined) return err(ERRNO.BADF);
  if (f.kind === 'dir') return ok();
  return f.dirty ? err(await commitFile(files, f)) : ok();
}

/** fd_sync and fd_datasync: a file with unwritten changes is committed. */
export async function syncFd(table: FdTable, files: CheckedFs, fd: number): Promise<WasiAnswer> {
  const f = table.get(fd);
  if (f === undefined) return err(ERRNO.BADF);
  return f.kind === 'file' && f.dirty ? err(await commitFile(files, f)) : ok();
}
