/**
 * The few file-system calls the start-up path of `validate` makes, as promises over node:fs's
 * callback API. node:fs/promises costs about 1.5 ms to load (it brings the readline, watcher and
 * stream modules with it), a twentieth of what validating one manifest costs above starting Node;
 * these run the same system calls on the same thread pool.
 */
import {
  close as closeCb,
  fstat as fstatCb,
  fsync as fsyncCb,
  lstat as lstatCb,
  open as openCb,
  read as readCb,
  readdir as readdirCb,
  readFile as readFileCb,
  realpath as realpathCb,
  rename as renameCb,
  rm as rmCb,
  stat as statCb,
  writeFile as writeFileCb,
  type Dirent,
  type Stats,
} from 'node:fs';

type Callback<T> = (err: NodeJS.ErrnoException | null, value: T) => void;

function promised<T>(start: (done: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => start((err, value) => (err ? reject(err) : resolve(value))));
}

/** For calls whose callback carries only an error. */
function completed(start: (done: (err: NodeJS.ErrnoException | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => start((err) => (err ? reject(err) : resolve())));
}

export const stat = (path: string): Promise<Stats> => promised((cb) => statCb(path, cb));
export const lstat = (path: string): Promise<Stats> => promised((cb) => lstatCb(path, cb));
/** realpath(3), as node:fs/promises' realpath resolves it. */
export const realpath = (path: string): Promise<string> => promised((cb) => realpathCb.native(path, cb));
export const readdirEntries = (path: string): Promise<Dirent[]> => promised((cb) => readdirCb(path, { withFileTypes: true }, cb));
export const readdirNames = (path: string): Promise<string[]> => promised((cb) => readdirCb(path, cb));
export const readFileBytes = (path: string): Promise<Buffer> => promised((cb) => readFileCb(path, cb));
export const readFileText = (path: string): Promise<string> => promised((cb) => readFileCb(path, 'utf8', cb));
export const rename = (from: string, to: string): Promise<void> => completed((cb) => renameCb(from, to, cb));
export const rmForce = (path: string): Promise<void> => completed((cb) => rmCb(path, { force: true }, cb));

/** A file descriptor and the calls the callers make on it. */
export const openFd = (path: string, flags: number | string, mode?: number): Promise<number> =>
  promised((cb) => (mode === undefined ? openCb(path, flags, cb) : openCb(path, flags, mode, cb)));
export const fstat = (fd: number): Promise<Stats> => promised((cb) => fstatCb(fd, cb));
export const closeFd = (fd: number): Promise<void> => completed((cb) => closeCb(fd, cb));
export const fsync = (fd: number): Promise<void> => completed((cb) => fsyncCb(fd, cb));
export const writeAll = (fd: number, data: string | Uint8Array): Promise<void> => completed((cb) => writeFileCb(fd, data, cb));
/** Reads up to `length` bytes at `position` into `buffer` at `offset`; resolves with the count. */
export const readAt = (fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> =>
  promised((cb) => readCb(fd, buffer, offset, length, position, (err, n) => cb(err, n)));
