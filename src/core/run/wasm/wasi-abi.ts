/**
 * WASI preview 1 as skillctl offers it: the import module's name, the calls a module may import
 * with their types (anything else is refused before the module starts, module.ts), and the
 * numbers of the ABI (errnos, file types, flags, rights) the host side uses (wasi-fs.ts and
 * its modules).
 * The module's thread (wasi-thread.ts) runs from its own text and cannot import these; it writes
 * the few numbers it needs as literals, each named where it is used.
 */

import { I32, I64, type FuncType } from './binary.js';

export const WASI_MODULE = 'wasi_snapshot_preview1';
/** The export a WASI command is started at. */
export const WASI_ENTRY = '_start';

const t = (params: readonly number[], results: readonly number[] = [I32]): FuncType => ({ params, results });
const i32s = (n: number): number[] => Array.from({ length: n }, () => I32);

/** The WASI calls the host answers, with their types (the witx of preview 1). */
export const WASI_TYPES: Readonly<Record<string, FuncType>> = {
  args_get: t(i32s(2)),
  args_sizes_get: t(i32s(2)),
  environ_get: t(i32s(2)),
  environ_sizes_get: t(i32s(2)),
  clock_res_get: t(i32s(2)),
  clock_time_get: t([I32, I64, I32]),
  fd_advise: t([I32, I64, I64, I32]),
  fd_allocate: t([I32, I64, I64]),
  fd_close: t(i32s(1)),
  fd_datasync: t(i32s(1)),
  fd_fdstat_get: t(i32s(2)),
  fd_filestat_get: t(i32s(2)),
  fd_filestat_set_size: t([I32, I64]),
  fd_pread: t([I32, I32, I32, I64, I32]),
  fd_prestat_dir_name: t(i32s(3)),
  fd_prestat_get: t(i32s(2)),
  fd_pwrite: t([I32, I32, I32, I64, I32]),
  fd_read: t(i32s(4)),
  fd_readdir: t([I32, I32, I32, I64, I32]),
  fd_seek: t([I32, I64, I32, I32]),
  fd_sync: t(i32s(1)),
  fd_tell: t(i32s(2)),
  fd_write: t(i32s(4)),
  path_create_directory: t(i32s(3)),
  path_filestat_get: t(i32s(5)),
  path_open: t([I32, I32, I32, I32, I32, I64, I64, I32, I32]),
  path_remove_directory: t(i32s(3)),
  path_rename: t(i32s(6)),
  path_unlink_file: t(i32s(3)),
  poll_oneoff: t(i32s(4)),
  proc_exit: t(i32s(1), []),
  random_get: t(i32s(2)),
  sched_yield: t([]),
  sock_accept: t(i32s(3)),
  sock_recv: t(i32s(6)),
  sock_send: t(i32s(5)),
  sock_shutdown: t(i32s(2)),
};

/** The errnos the host returns. */
export const ERRNO = {
  SUCCESS: 0,
  ACCES: 2,
  BADF: 8,
  EXIST: 20,
  FBIG: 22,
  INVAL: 28,
  IO: 29,
  ISDIR: 31,
  LOOP: 32,
  MFILE: 33,
  NAMETOOLONG: 37,
  NOENT: 44,
  NOMEM: 48,
  NOSPC: 51,
  NOTDIR: 54,
  NOTEMPTY: 55,
  PERM: 63,
  SPIPE: 70,
  XDEV: 75,
  NOTCAPABLE: 76,
} as const;

export const FILETYPE = { UNKNOWN: 0, CHARACTER_DEVICE: 2, DIRECTORY: 3, REGULAR_FILE: 4, SOCKET_STREAM: 6, SYMBOLIC_LINK: 7 } as const;
export const OFLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;
export const FDFLAGS = { APPEND: 1 } as const;
export const LOOKUP_SYMLINK_FOLLOW = 1;
export const WHENCE = { SET: 0, CUR: 1, END: 2 } as const;

/** Rights (preview 1 bit numbers). */
export const RIGHTS = {
  FD_DATASYNC: 1n << 0n,
  FD_READ: 1n << 1n,
  FD_SEEK: 1n << 2n,
  FD_FDSTAT_SET_FLAGS: 1n << 3n,
  FD_SYNC: 1n << 4n,
  FD_TELL: 1n << 5n,
  FD_WRITE: 1n << 6n,
  FD_ADVISE: 1n << 7n,
  FD_ALLOCATE: 1n << 8n,
  PATH_CREATE_DIRECTORY: 1n << 9n,
  PATH_CREATE_FILE: 1n << 10n,
  PATH_OPEN: 1n << 13n,
  FD_READDIR: 1n << 14n,
  PATH_RENAME_SOURCE: 1n << 16n,
  PATH_RENAME_TARGET: 1n << 17n,
  PATH_FILESTAT_GET: 1n << 18n,
  FD_FILESTAT_GET: 1n << 21n,
  FD_FILESTAT_SET_SIZE: 1n << 22n,
  PATH_REMOVE_DIRECTORY: 1n << 25n,
  PATH_UNLINK_FILE: 1n << 26n,
} as const;

const any = (...r: bigint[]): bigint => r.reduce((a, b) => a | b, 0n);

/** What a file opened to read may do. */
export const FILE_READ_RIGHTS = any(RIGHTS.FD_READ, RIGHTS.FD_SEEK, RIGHTS.FD_TELL, RIGHTS.FD_ADVISE, RIGHTS.FD_FILESTAT_GET, RIGHTS.FD_SYNC, RIGHTS.FD_DATASYNC);
/** What writing adds; asking for any of these (or creating, truncating, appending) is opening to write. */
export const FILE_WRITE_RIGHTS = any(RIGHTS.FD_WRITE, RIGHTS.FD_ALLOCATE, RIGHTS.FD_FILESTAT_SET_SIZE);
/** What a directory opened to read may do. */
export const DIR_READ_RIGHTS = any(RIGHTS.PATH_OPEN, RIGHTS.FD_READDIR, RIGHTS.PATH_FILESTAT_GET, RIGHTS.FD_FILESTAT_GET);
/** What a directory of an fs.write grant adds. */
export const DIR_WRITE_RIGHTS = any(RIGHTS.PATH_CREATE_DIRECTORY, RIGHTS.PATH_CREATE_FILE, RIGHTS.PATH_RENAME_SOURCE, RIGHTS.PATH_RENAME_TARGET, RIGHTS.PATH_REMOVE_DIRECTORY, RIGHTS.PATH_UNLINK_FILE);

/** The most bytes one open file holds (a file is read whole when opened, and written whole when committed). */
export const WASI_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** The most bytes all open files hold together. */
export const WASI_MAX_OPEN_BYTES = 128 * 1024 * 1024;
/**
 * The most bytes an fd_write to a file sends with its request. A larger write is checked first by
 * the host, which holds the descriptor table (the descriptor, its rights, the file bound, what open
 * files may hold together), before any byte is copied out of the guest's memory.
 */
export const WASI_UNCHECKED_WRITE_BYTES = 64 * 1024;
/** The most descriptors open at once. */
export const WASI_MAX_FDS = 256;
/** The first descriptor after stdin, stdout and stderr: the first preopened directory. */
export const FIRST_PREOPEN_FD = 3;
