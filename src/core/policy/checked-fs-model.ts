/**
 * What the checked file layer (checked-fs.ts) hands out: handles the policy allowed, and why an
 * operation did not happen. The layer's callers (built-ins, wasm hostcalls, WASI) see only these.
 */
import type { Dirent, Stats } from 'node:fs';
import type { PolicyDenial } from './gate.js';

/** Why an operation did not happen: the policy refused it, or the file system answered. */
export type FsFailure =
  | { readonly kind: 'denied'; readonly decision: PolicyDenial }
  | { readonly kind: 'missing' }
  | { readonly kind: 'not-file' }
  | { readonly kind: 'not-dir' }
  | { readonly kind: 'error'; readonly code: string };

export type Scope = 'fs.read' | 'fs.write';
/**
 * How a directory is opened: judged as a place to read or to write, or only passed through on
 * the way to files that are each judged themselves (a patch's `base`, whose own directory need not
 * be writable for a file below it to be).
 */
export type DirScope = Scope | 'traverse';

/** A regular file the policy allowed, open for reading. */
export interface CheckedFile {
  readonly real: string;
  readonly size: number;
  /** Up to `max` bytes from the start. */
  read(max: number): Promise<Buffer>;
  close(): Promise<void>;
}

/** A directory the policy allowed, held open: its children are reached only through it. */
export interface CheckedDir {
  readonly real: string;
  readonly scope: DirScope;
  /** Its entries (names and kinds), unsorted. */
  entries(): Promise<Dirent[]>;
  /** A child's own metadata (a symlink is described, not followed). */
  lstat(name: string): Promise<Stats | FsFailure>;
  /** A child regular file, never through a symlink. */
  file(name: string): Promise<CheckedFile | FsFailure>;
  /** A child directory, never through a symlink. */
  dir(name: string): Promise<CheckedDir | FsFailure>;
  /** Creates a child directory (fs.write) and opens it. */
  makeDir(name: string): Promise<CheckedDir | FsFailure>;
  /**
   * Writes `data` to a new temporary file in this directory (fs.write); returns its name.
   * `announce` hears the file's path before the file exists, so that a run stopped while it is
   * written (a thread terminated at its deadline) can still remove it. `signal` (a run's, which
   * its deadline aborts): once aborted, the write stops between two pieces of it (WRITE_PIECE),
   * the file is removed and the answer is ECANCELED; and the file is flushed to disk as it goes
   * (every FLUSH_EVERY), so that the flush at its end, which nothing can stop, is short.
   */
  writeTemp(forName: string, data: Uint8Array, mode: number, announce?: (path: string) => void, signal?: AbortSignal): Promise<string | FsFailure>;
  /**
   * Renames a child over another (fs.write on both names, neither holding a path the run
   * protects); a symlink named `to` is replaced, not followed.
   */
  rename(from: string, to: string): Promise<FsFailure | undefined>;
  /** Removes a child file (fs.write); a symlink is removed, not followed. */
  remove(name: string): Promise<FsFailure | undefined>;
  /** Removes an empty child directory (fs.write; not one above a path the run protects). */
  removeDir(name: string): Promise<FsFailure | undefined>;
  close(): Promise<void>;
}

export interface CheckedFs {
  /** A regular file to read: the kernel resolves `path` as it opens it, and the policy judges what it opened. */
  openFile(path: string): Promise<CheckedFile | FsFailure>;
  /** A directory to list (fs.read), write in (fs.write) or pass through (traverse), opened the same way. */
  openDir(path: string, scope: DirScope): Promise<CheckedDir | FsFailure>;
}

export function isFailure<T extends object>(v: T | FsFailure): v is FsFailure {
  return 'kind' in v;
}
