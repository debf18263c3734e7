/**
 * The host work a module's hostcalls start on the run's thread (a file written, a directory made,
 * an HTTP exchange), which must not outlive the run. The module's thread can be terminated at
 * once, but this work cannot: left alone, an http_fetch ran on for its own 10 s after a 1 s
 * deadline, and an fs_write_file renamed its file into place after the audit record had said the
 * run was over. So, when a run is stopped (its deadline, a signal, a failed thread), its signal is
 * aborted: an HTTP exchange is cut, and the file layer the hostcalls use creates and renames
 * nothing more (a write not yet renamed into place backs out, one under way within a piece of
 * it). And whenever a run ends, its end waits for the work still under way (a rename already
 * begun), within COMMIT_GRACE_MS as the built-in runtime waits for a commit, so that every change
 * the run made comes before its end.
 */
import type { CheckedDir, CheckedFs, FsFailure } from '../../policy/index.js';
import { isFailure } from '../../policy/index.js';

/** What a step the run may no longer take gives: the callers' own failure path (-1, an errno). */
const STOPPED: FsFailure = { kind: 'error', code: 'ECANCELED' };

export class HostWork {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly ctrl = new AbortController();

  /** Aborted when the run is stopped. */
  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  /** Counts `work` as under way until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const done = (): void => {
      this.pending.delete(work);
    };
    work.then(done, done);
    return work;
  }

  abort(): void {
    this.ctrl.abort();
  }

  /** Settles when every piece of work under way has, or `graceMs` after it is called. */
  drained(graceMs: number): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      void Promise.allSettled([...this.pending]).then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** `dir`, which creates and renames nothing once `signal` is aborted (removing stays allowed, to clean up). */
function stoppableDir(dir: CheckedDir, signal: AbortSignal): CheckedDir {
  const wrap = (d: CheckedDir | FsFailure): CheckedDir | FsFailure => (isFailure(d) ? d : stoppableDir(d, signal));
  return {
    real: dir.real,
    scope: dir.scope,
    entries: () => dir.entries(),
    lstat: (name) => dir.lstat(name),
    file: (name) => dir.file(name),
    dir: async (name) => wrap(await dir.dir(name)),
    makeDir: async (name) => (signal.aborted ? STOPPED : wrap(await dir.makeDir(name))),
    // The signal goes on into the write: aborted while it is under way, it backs out between two pieces.
    writeTemp: async (forName, data, mode, announce) => (signal.aborted ? STOPPED : dir.writeTemp(forName, data, mode, announce, signal)),
    rename: async (from, to) => (signal.aborted ? STOPPED : dir.rename(from, to)),
    remove: (name) => dir.remove(name),
    removeDir: async (name) => (signal.aborted ? STOPPED : dir.removeDir(name)),
    close: () => dir.close(),
  };
}

/** The checked file layer of a run's hostcalls, stopped with the run (above). */
export function stoppableFs(files: CheckedFs, signal: AbortSignal): CheckedFs {
  return {
    openFile: (path) => files.openFile(path),
    openDir: async (path, scope) => {
      const d = await files.openDir(path, scope);
      return isFailure(d) ? d : stoppableDir(d, signal);
    },
  };
}
