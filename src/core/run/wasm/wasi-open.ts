/**
 * path_open and path_filestat_get: a guest path under a directory descriptor opened through the
 * checked layer, as a file (its content read into a buffer, wasi-file-buffer.ts) or a directory,
 * and placed in the table with the rights its directory passes on. Opening to write needs a
 * descriptor of an fs.write grant; a symlink at the end is judged where it leads, by the gate.
 */
import { isFailure, type CheckedDir, type FsFailure } from '../../policy/index.js';
import { DIR_READ_RIGHTS, DIR_WRITE_RIGHTS, ERRNO, FDFLAGS, FILE_READ_RIGHTS, FILE_WRITE_RIGHTS, FILETYPE, OFLAGS, RIGHTS, WASI_MAX_FILE_BYTES } from './wasi-abi.js';
import { errnoOf } from './wasi-errno.js';
import { commitFile } from './wasi-file-buffer.js';
import type { DirFd, FileFd, WasiHost } from './wasi-fd-table.js';
import { pathUnder, refuseReadOnly, refuseSpecial, scopeOf, symlinkAtEnd, type GuestPath } from './wasi-paths.js';
import { filestat } from './wasi-stat.js';
import { err, isAnswer, ok, type WasiAnswer, type WasiCall } from './wasi-wire.js';

async function openRead(host: WasiHost, d: DirFd, abs: string, wantDir: boolean): Promise<WasiAnswer> {
  const { files, table } = host;
  if (!wantDir) {
    const f = await files.openFile(abs);
    if (!isFailure(f)) {
      try {
        if (f.size > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
        const data = await f.read(WASI_MAX_FILE_BYTES + 1);
        if (data.length > WASI_MAX_FILE_BYTES) return err(ERRNO.FBIG);
        if (!table.hold(data.length)) return err(ERRNO.NOMEM);
        const cut = f.real.lastIndexOf('/');
        const fd = table.place({ kind: 'file', real: f.real, parent: f.real.slice(0, Math.max(cut, 1)), name: f.real.slice(cut + 1), data, size: data.length, pos: 0, dirty: false, append: false, rights: FILE_READ_RIGHTS });
        return fd === undefined ? table.unhold(data.length, ERRNO.MFILE) : ok({ value: BigInt(fd) });
      } finally {
        await f.close();
      }
    }
    if (f.kind !== 'not-file') return err(errnoOf(f));
  }
  // Not a regular file: a directory (open(2) without O_DIRECTORY opens one too), or refused.
  const dir = await files.openDir(abs, scopeOf(d));
  if (isFailure(dir)) {
    if (dir.kind === 'not-dir') return wantDir ? err(ERRNO.NOTDIR) : refuseSpecial(host.gate, 'fs.read');
    return err(errnoOf(dir));
  }
  await dir.close();
  const fd = table.place({ kind: 'dir', real: dir.real, read: d.read, write: d.write, rights: d.inheriting & (DIR_READ_RIGHTS | DIR_WRITE_RIGHTS), inheriting: d.inheriting });
  return fd === undefined ? err(ERRNO.MFILE) : ok({ value: BigInt(fd) });
}

async function openWrite(host: WasiHost, d: DirFd, req: WasiCall<'path_open'>, target: GuestPath): Promise<WasiAnswer> {
  const { gate, files, table } = host;
  if (!d.write) return refuseReadOnly(gate, '; it opens nothing to write');
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
    if (exists && !(st as { isFile(): boolean }).isFile()) return refuseSpecial(gate, 'fs.write');
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
    if (!table.hold(data.length)) return err(ERRNO.NOMEM);
    const real = `${pd.real === '/' ? '' : pd.real}/${name}`;
    const wanted = req.rightsBase & (FILE_READ_RIGHTS | FILE_WRITE_RIGHTS) & d.inheriting;
    const file: FileFd = { kind: 'file', real, parent: pd.real, name, data, size: data.length, pos: 0, dirty: truncate, append: (req.fdflags & FDFLAGS.APPEND) !== 0, rights: wanted | RIGHTS.FD_WRITE };
    // A created or truncated file exists as such from now on.
    if (file.dirty) {
      const e = await commitFile(files, file);
      if (e !== ERRNO.SUCCESS) return table.unhold(data.length, e);
    }
    const fd = table.place(file);
    return fd === undefined ? table.unhold(data.length, ERRNO.MFILE) : ok({ value: BigInt(fd) });
  } finally {
    if (!isFailure(pd)) await pd.close();
  }
}

export async function pathOpen(host: WasiHost, req: WasiCall<'path_open'>): Promise<WasiAnswer> {
  const d = host.table.dirOf(req.fd);
  if (isAnswer(d)) return d;
  const wantDir = (req.oflags & OFLAGS.DIRECTORY) !== 0;
  const writing = (req.rightsBase & FILE_WRITE_RIGHTS) !== 0n || (req.oflags & (OFLAGS.CREAT | OFLAGS.TRUNC)) !== 0 || (req.fdflags & FDFLAGS.APPEND) !== 0;
  if (wantDir && (req.oflags & (OFLAGS.CREAT | OFLAGS.TRUNC)) !== 0) return err(ERRNO.INVAL);
  const target = await pathUnder(host.gate, d, req.path, writing ? 'fs.write' : scopeOf(d));
  if (isAnswer(target)) return target;
  if (writing && !wantDir) return openWrite(host, d, req, target);
  if (!req.follow && (await symlinkAtEnd(host.files, target.parent, target.name, scopeOf(d)))) return err(ERRNO.LOOP);
  return openRead(host, d, target.abs, wantDir);
}

export async function pathFilestat(host: WasiHost, req: WasiCall<'path_filestat_get'>): Promise<WasiAnswer> {
  const { files } = host;
  const d = host.table.dirOf(req.fd);
  if (isAnswer(d)) return d;
  const target = await pathUnder(host.gate, d, req.path, scopeOf(d));
  if (isAnswer(target)) return target;
  if (!req.follow && (await symlinkAtEnd(files, target.parent, target.name, scopeOf(d)))) return ok({ data: filestat(target.abs, FILETYPE.SYMBOLIC_LINK, 0) });
  const f = await files.openFile(target.abs);
  if (!isFailure(f)) {
    await f.close();
    return ok({ data: filestat(f.real, FILETYPE.REGULAR_FILE, f.size) });
  }
  if (f.kind !== 'not-file') return err(errnoOf(f));
  const dir = await files.openDir(target.abs, scopeOf(d));
  if (isFailure(dir)) return dir.kind === 'not-dir' ? refuseSpecial(host.gate, 'fs.read') : err(errnoOf(dir));
  await dir.close();
  return ok({ data: filestat(dir.real, FILETYPE.DIRECTORY, 0) });
}
