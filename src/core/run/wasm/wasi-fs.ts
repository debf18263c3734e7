/**
 * The host's side of WASI preview 1's file calls: each call the module's thread forwards
 * (wasi-wire.ts) is answered here, in the run's thread, against the descriptor table
 * (wasi-fd-table.ts). Every call that reaches a file goes through the same gate and checked file
 * layer as the built-in skills and the provenact hostcalls (wasi-paths.ts); open files are
 * buffers committed atomically (wasi-file-buffer.ts); directories are read in a stable order
 * (wasi-readdir.ts) and changed through their parent (wasi-path-ops.ts). Metadata is the same
 * on every machine (wasi-stat.ts).
 */
import type { CheckedFs, RecordingGate } from '../../policy/index.js';
import { ERRNO, FDFLAGS, FILETYPE } from './wasi-abi.js';
import { errnoOfThrown } from './wasi-errno.js';
import { allocateFile, checkWrite, closeFd, dropStaged, placeFile, readFile, seekFile, setFileSize, stageFile, syncFd, writeFile, type StagedFile } from './wasi-file-buffer.js';
import { FdTable, type Preopen, type WasiHost } from './wasi-fd-table.js';
import { pathFilestat, pathOpen } from './wasi-open.js';
import { createDirectory, removeDirectory, renamePath, unlinkFile } from './wasi-path-ops.js';
import { readDir } from './wasi-readdir.js';
import { fdstat, filestat } from './wasi-stat.js';
import { err, ok, type WasiAnswer, type WasiRequest } from './wasi-wire.js';

export type { Preopen } from './wasi-fd-table.js';
export type { WasiAnswer, WasiRequest } from './wasi-wire.js';

export interface WasiFs {
  serve(req: WasiRequest): Promise<WasiAnswer>;
  /**
   * Writes every open file with unwritten changes (the module ended by returning or proc_exit),
   * under the run's deadline (runtimes/wasm.ts): each is written beside its name first, and only
   * once all are, and `stop` is not aborted, are they renamed into place (`renaming` says when
   * that starts: the renames, a few system calls, then finish). Stopped before, none is renamed
   * and every temporary file is removed: the run's files are as the module last committed them.
   */
  commitAll(stop: CommitStop): Promise<void>;
}

export interface CommitStop {
  readonly signal: AbortSignal;
  readonly renaming: () => void;
}

function describe(host: WasiHost, req: WasiRequest & { readonly fd: number }): WasiAnswer {
  const f = host.table.get(req.fd);
  if (f === undefined) return err(ERRNO.BADF);
  switch (req.call) {
    case 'fd_advise':
      return f.kind === 'dir' ? err(ERRNO.ISDIR) : ok();
    case 'fd_fdstat_get':
      if (f.kind === 'dir') return ok({ data: fdstat(FILETYPE.DIRECTORY, 0, f.rights, f.inheriting) });
      return ok({ data: fdstat(FILETYPE.REGULAR_FILE, f.append ? FDFLAGS.APPEND : 0, f.rights, 0n) });
    case 'fd_filestat_get':
      return ok({ data: f.kind === 'dir' ? filestat(f.real, FILETYPE.DIRECTORY, 0) : filestat(f.real, FILETYPE.REGULAR_FILE, f.size) });
    default:
      // fd_prestat_get and fd_prestat_dir_name: only a preopened directory has a prestat.
      return f.kind !== 'dir' || f.preopen === undefined ? err(ERRNO.BADF) : ok({ data: Buffer.from(f.preopen) });
  }
}

async function serve(host: WasiHost, req: WasiRequest): Promise<WasiAnswer> {
  switch (req.call) {
    case 'path_open':
      return pathOpen(host, req);
    case 'fd_read':
      return readFile(host.table, req);
    case 'fd_write':
      return writeFile(host.table, req);
    case 'fd_write_check':
      return checkWrite(host.table, req);
    case 'fd_seek':
      return seekFile(host.table, req);
    case 'fd_close':
      return closeFd(host.table, host.files, req.fd);
    case 'fd_sync':
    case 'fd_datasync':
      return syncFd(host.table, host.files, req.fd);
    case 'fd_advise':
    case 'fd_fdstat_get':
    case 'fd_filestat_get':
    case 'fd_prestat_get':
    case 'fd_prestat_dir_name':
      return describe(host, req);
    case 'fd_allocate':
      return allocateFile(host.table, req);
    case 'fd_filestat_set_size':
      return setFileSize(host.table, req);
    case 'fd_readdir':
      return readDir(host, req);
    case 'path_filestat_get':
      return pathFilestat(host, req);
    case 'path_create_directory':
      return createDirectory(host, req);
    case 'path_unlink_file':
      return unlinkFile(host, req);
    case 'path_remove_directory':
      return removeDirectory(host, req);
    case 'path_rename':
      return renamePath(host, req);
    default: {
      const never: never = req;
      return never;
    }
  }
}

export function wasiFs(gate: RecordingGate, files: CheckedFs, preopens: readonly Preopen[]): WasiFs {
  const host: WasiHost = { gate, files, table: new FdTable(preopens) };
  return {
    async serve(req) {
      try {
        return await serve(host, req);
      } catch (e) {
        return err(errnoOfThrown(e));
      }
    },
    async commitAll(stop) {
      const staged: StagedFile[] = [];
      try {
        for (const f of host.table.dirtyFiles()) {
          if (stop.signal.aborted) return;
          // A file that cannot be written is left as it was, as a failed fd_close leaves it.
          const s = await stageFile(files, f);
          if (typeof s !== 'number') staged.push(s);
        }
        if (stop.signal.aborted) return;
        stop.renaming();
        for (const s of staged.splice(0)) await placeFile(s);
      } finally {
        for (const s of staged) await dropStaged(s);
      }
    },
  };
}
