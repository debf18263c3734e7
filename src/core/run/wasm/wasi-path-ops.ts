/**
 * The calls that change a directory of an fs.write grant: path_create_directory,
 * path_unlink_file, path_remove_directory and path_rename. Each works on the parent directory of
 * its path, opened to write through the checked layer; a descriptor of an fs.read grant is
 * refused (recorded). A rename stays within one directory (else XDEV): the checked layer renames
 * through one directory handle.
 */
import { isFailure, type CheckedDir } from '../../policy/index.js';
import { ERRNO } from './wasi-abi.js';
import { errnoOf, errnoOfResult } from './wasi-errno.js';
import type { WasiHost } from './wasi-fd-table.js';
import { pathUnder, refuseReadOnly } from './wasi-paths.js';
import { err, isAnswer, type WasiAnswer, type WasiCall } from './wasi-wire.js';

/** A call on the parent directory of a path, opened to write (create, unlink, remove). */
async function inParent(host: WasiHost, fd: number, path: string, act: (pd: CheckedDir, name: string) => Promise<number>): Promise<WasiAnswer> {
  const d = host.table.dirOf(fd);
  if (isAnswer(d)) return d;
  if (!d.write) return refuseReadOnly(host.gate, '');
  const target = await pathUnder(host.gate, d, path, 'fs.write');
  if (isAnswer(target)) return target;
  if (target.name === undefined) return err(ERRNO.INVAL);
  const pd = await host.files.openDir(target.parent, 'fs.write');
  if (isFailure(pd)) return err(errnoOf(pd));
  try {
    return err(await act(pd, target.name));
  } finally {
    await pd.close();
  }
}

export function createDirectory(host: WasiHost, req: WasiCall<'path_create_directory'>): Promise<WasiAnswer> {
  return inParent(host, req.fd, req.path, async (pd, name) => {
    if (!isFailure(await pd.lstat(name))) return ERRNO.EXIST;
    const made = await pd.makeDir(name);
    if (isFailure(made)) return errnoOf(made);
    await made.close();
    return ERRNO.SUCCESS;
  });
}

export function unlinkFile(host: WasiHost, req: WasiCall<'path_unlink_file'>): Promise<WasiAnswer> {
  return inParent(host, req.fd, req.path, async (pd, name) => {
    const st = await pd.lstat(name);
    if (isFailure(st)) return errnoOf(st);
    return st.isDirectory() ? ERRNO.ISDIR : errnoOfResult(await pd.remove(name));
  });
}

export function removeDirectory(host: WasiHost, req: WasiCall<'path_remove_directory'>): Promise<WasiAnswer> {
  return inParent(host, req.fd, req.path, async (pd, name) => {
    const st = await pd.lstat(name);
    if (isFailure(st)) return errnoOf(st);
    return st.isDirectory() ? errnoOfResult(await pd.removeDir(name)) : ERRNO.NOTDIR;
  });
}

export async function renamePath(host: WasiHost, req: WasiCall<'path_rename'>): Promise<WasiAnswer> {
  const to = host.table.dirOf(req.fd2);
  if (isAnswer(to)) return to;
  const dest = await pathUnder(host.gate, to, req.path2, 'fs.write');
  if (isAnswer(dest)) return dest;
  return inParent(host, req.fd, req.path, async (pd, name) => {
    if (dest.name === undefined) return ERRNO.INVAL;
    // Within one directory only: the checked layer renames through one directory handle.
    const other = await host.files.openDir(dest.parent, 'fs.write');
    if (isFailure(other)) return errnoOf(other);
    const same = other.real === pd.real;
    await other.close();
    return same ? errnoOfResult(await pd.rename(name, dest.name)) : ERRNO.XDEV;
  });
}
