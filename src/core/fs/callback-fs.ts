/**
 * The few file-system calls the start-up path of `validate` makes, as promises over node:fs's
 * callback API (util.promisify). node:fs/promises costs about 1.5 ms to load (it brings the
 * readline, watcher and stream modules with it), a twentieth of what validating one manifest
 * costs above starting Node; these run the same system calls on the same thread pool.
 */
import { close, fstat as fstatCb, fsync as fsyncCb, lstat as lstatCb, open, read, readdir, readFile, realpath as realpathCb, rename as renameCb, rm, stat as statCb, writeFile, type Dirent, type Stats } from 'node:fs';
import { promisify } from 'node:util';

const readdirP = promisify(readdir);
const readFileP = promisify(readFile);
const rmP = promisify(rm);
const openP = promisify(open);
const readP = promisify(read);
const writeFileP = promisify(writeFile);

export const stat: (path: string) => Promise<Stats> = promisify(statCb);
export const lstat: (path: string) => Promise<Stats> = promisify(lstatCb);
/** realpath(3), as node:fs/promises' realpath resolves it. */
export const realpath: (path: string) => Promise<string> = promisify(realpathCb.native);
export const readdirEntries = (path: string): Promise<Dirent[]> => readdirP(path, { withFileTypes: true });
export const readdirNames = (path: string): Promise<string[]> => readdirP(path);
export const readFileBytes = (path: string): Promise<Buffer> => readFileP(path);
export const readFileText = (path: string): Promise<string> => readFileP(path, 'utf8');
export const rename: (from: string, to: string) => Promise<void> = promisify(renameCb);
export const rmForce = (path: string): Promise<void> => rmP(path, { force: true });

/** A file descriptor and the calls the callers make on it. */
export const openFd = (path: string, flags: number | string, mode?: number): Promise<number> => openP(path, flags, mode);
export const fstat: (fd: number) => Promise<Stats> = promisify(fstatCb);
export const closeFd: (fd: number) => Promise<void> = promisify(close);
export const fsync: (fd: number) => Promise<void> = promisify(fsyncCb);
export const writeAll = (fd: number, data: string | Uint8Array): Promise<void> => writeFileP(fd, data);
/** Reads up to `length` bytes at `position` into `buffer` at `offset`; resolves with the count. */
export const readAt = async (fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> =>
  (await readP(fd, buffer, offset, length, position)).bytesRead;
