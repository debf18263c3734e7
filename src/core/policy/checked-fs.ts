/**
 * The one checked layer through which built-in skills reach files. A check by path followed by
 * a use by path is a race: between the two, a process swaps a directory for a symlink and the use
 * lands outside the grant. So nothing here is used by the path that was checked. Each file or
 * directory is first opened as a handle that only names it (O_PATH: no driver is opened, a FIFO
 * cannot block, a device cannot act), the kernel says what was opened (/proc/self/fd/N), and the
 * policy decides about that real path. Everything after goes through the handle: a file is read
 * by reopening the handle itself, a directory's children are reached as /proc/self/fd/N/<name>
 * (resolved from the directory the handle holds, not from a path string) and never through a
 * symlink, and a file is written as a new temporary file in a checked directory, then renamed
 * there. docs/security.md lists what remains (hard links, hosts without /proc).
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { errnoCode } from '../errors.js';
import { isFailure, type CheckedDir, type CheckedFile, type CheckedFs, type DirScope, type FsFailure } from './checked-fs-model.js';
import type { RecordingGate } from './gate.js';
import { pathForm } from './paths.js';
import type { WriteUse } from './protected.js';

/** O_PATH (Linux): a handle that names a file without opening it for I/O. Not in fs.constants. */
const O_PATH = 0o10000000;
const LINUX = process.platform === 'linux';

/** The pieces a write that a signal may stop is made of (writeTemp). */
export const WRITE_PIECE = 1 << 20;
/** How much a write that a signal may stop flushes to disk at a time (writeTemp). */
export const FLUSH_EVERY = 16 << 20;

/** Thrown inside writeWhole when its signal is aborted. */
const STOPPED = Symbol('stopped');

/**
 * Writes all of `data`. With a signal, a piece at a time, the signal read between them, and
 * flushed every FLUSH_EVERY: a 64 MiB write at a run's deadline backs out within a piece, and the
 * caller's last flush (which cannot be stopped) has at most FLUSH_EVERY to write.
 */
async function writeWhole(fh: FileHandle, data: Uint8Array, signal: AbortSignal | undefined): Promise<void> {
  const piece = signal === undefined ? data.length : WRITE_PIECE;
  let written = 0;
  let flushed = 0;
  while (written < data.length) {
    if (signal?.aborted === true) throw STOPPED;
    written += (await fh.write(data, written, Math.min(piece, data.length - written))).bytesWritten;
    if (signal !== undefined && written - flushed >= FLUSH_EVERY) {
      await fh.datasync();
      flushed = written;
    }
  }
  if (signal?.aborted === true) throw STOPPED;
}

function fromErrno(err: unknown): FsFailure {
  const code = errnoCode(err);
  if (code === 'ENOENT') return { kind: 'missing' };
  if (code === 'ENOTDIR') return { kind: 'not-dir' };
  if (code === 'ELOOP') return { kind: 'not-file' };
  return { kind: 'error', code: code ?? 'EIO' };
}

function fdPath(fh: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${fh.fd}` : `/proc/self/fd/${fh.fd}/${name}`;
}

/** A child name: one path segment, nothing a join could turn into another place. */
function plainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\u0000');
}

/** What the kernel appends to the path of an object no longer linked under the name it was opened by. */
const DELETED = ' (deleted)';

/**
 * Where the handle really is, as the kernel sees it; undefined when the object was unlinked since
 * it was opened, so that it has no path to judge. The suffix is never stripped on trust: a real
 * file or directory may be named `<grant> (deleted)`, and stripping would judge it as the grant.
 * Only the name itself tells: when it is still there and is this very object (same device and
 * inode), it is a real name and is judged whole; otherwise the object was unlinked.
 */
export async function realOf(fh: FileHandle, fallback: string): Promise<string | undefined> {
  if (!LINUX) return fallback;
  const target = await readlink(fdPath(fh));
  if (!target.endsWith(DELETED)) return target;
  const [held, named] = await Promise.all([fh.stat({ bigint: true }), lstat(target, { bigint: true }).catch(() => undefined)]);
  return named !== undefined && named.dev === held.dev && named.ino === held.ino ? target : undefined;
}

export function checkedFs(gate: RecordingGate, cwd: string): CheckedFs {
  /**
   * Why a path that could not be opened was not opened: when the policy would not have allowed
   * it anyway, that refusal, so that an error code never tells whether a path outside the grant
   * exists.
   */
  async function explain(path: string, scope: DirScope, failure: FsFailure): Promise<FsFailure> {
    const d = scope === 'fs.read' ? await gate.checkRead(path) : await gate.checkWrite(path);
    return d.allowed ? failure : { kind: 'denied', decision: d };
  }

  /** Opens `path` as a handle (following links only when `follow`), judges what it is, and closes it on refusal. */
  async function judge(path: string, scope: DirScope, follow: boolean, want: 'file' | 'dir'): Promise<{ fh: FileHandle; real: string; size: number } | FsFailure> {
    const base = want === 'dir' ? constants.O_DIRECTORY : 0;
    const flags = (LINUX ? O_PATH : constants.O_RDONLY | constants.O_NONBLOCK) | base | (follow ? 0 : constants.O_NOFOLLOW);
    let fh: FileHandle;
    try {
      fh = await open(path, flags);
    } catch (err) {
      const failure = fromErrno(err);
      // O_NOFOLLOW on a symlink, O_DIRECTORY on a file: the path names something else than asked.
      if (failure.kind === 'not-dir' && want === 'file') return explain(path, scope, { kind: 'missing' });
      return explain(path, scope, want === 'dir' && failure.kind === 'not-file' ? { kind: 'not-dir' } : failure);
    }
    try {
      const st = await fh.stat();
      const real = await realOf(fh, path);
      // Unlinked between the open and now: nothing names it, so it is treated as the missing path it has become.
      if (real === undefined) throw Object.assign(new Error('unlinked'), { failure: await explain(path, scope, { kind: 'missing' }) });
      // A directory opened to write in is a place, not a name being written: `.git` may be entered.
      const decision = scope === 'traverse' ? undefined : gate.decidePath(scope, real, follow && real !== path, want === 'dir' ? 'enter' : 'write');
      if (decision !== undefined && !decision.allowed) throw Object.assign(new Error(decision.reason), { failure: { kind: 'denied', decision } satisfies FsFailure });
      if (want === 'file' && !st.isFile()) throw Object.assign(new Error('not a regular file'), { failure: { kind: 'not-file' } satisfies FsFailure });
      if (want === 'dir' && !st.isDirectory()) throw Object.assign(new Error('not a directory'), { failure: { kind: 'not-dir' } satisfies FsFailure });
      return { fh, real, size: st.size };
    } catch (err) {
      await fh.close();
      const failure = (err as { failure?: FsFailure }).failure;
      if (failure !== undefined) return failure;
      return fromErrno(err);
    }
  }

  function fileOf(h: { fh: FileHandle; real: string; size: number }): CheckedFile {
    return {
      real: h.real,
      size: h.size,
      async read(max) {
        // Reopened through the handle itself: the same file, whatever its name now leads to.
        const io = LINUX ? await open(fdPath(h.fh), constants.O_RDONLY) : h.fh;
        try {
          // The size is a hint (a file may grow; /proc files say 0): read in pieces up to `max`.
          const chunks: Buffer[] = [];
          let filled = 0;
          while (filled < max) {
            const piece = Buffer.allocUnsafe(Math.min(max - filled, Math.max(h.size + 1 - filled, 64 * 1024)));
            const { bytesRead } = await io.read(piece, 0, piece.length, filled);
            if (bytesRead === 0) break;
            chunks.push(piece.subarray(0, bytesRead));
            filled += bytesRead;
          }
          return Buffer.concat(chunks, filled);
        } finally {
          if (io !== h.fh) await io.close();
        }
      },
      close: () => h.fh.close(),
    };
  }

  function dirOf(h: { fh: FileHandle; real: string }, scope: DirScope): CheckedDir {
    const child = (name: string): string => (LINUX ? fdPath(h.fh, name) : `${h.real}/${name}`);
    const refuseName = (name: string): FsFailure | undefined => (plainName(name) ? undefined : { kind: 'error', code: 'EINVAL' });
    /**
     * A name about to be written (`write`), or renamed or removed (`move`: nor may it hold a path
     * the run protects): judged as the real path it has or will have.
     */
    const writable = (name: string, use: WriteUse = 'write'): FsFailure | undefined => {
      const bad = refuseName(name);
      if (bad !== undefined) return bad;
      const decision = gate.decidePath('fs.write', `${h.real === '/' ? '' : h.real}/${name}`, false, use);
      return decision.allowed ? undefined : { kind: 'denied', decision };
    };
    return {
      real: h.real,
      scope,
      entries: () => readdir(LINUX ? fdPath(h.fh) : h.real, { withFileTypes: true }),
      async lstat(name) {
        const bad = refuseName(name);
        if (bad !== undefined) return bad;
        try {
          return await lstat(child(name));
        } catch (err) {
          return fromErrno(err);
        }
      },
      async file(name) {
        const bad = refuseName(name);
        if (bad !== undefined) return bad;
        const j = await judge(child(name), 'fs.read', false, 'file');
        return isFailure(j) ? j : fileOf(j);
      },
      async dir(name) {
        const bad = refuseName(name);
        if (bad !== undefined) return bad;
        const j = await judge(child(name), scope, false, 'dir');
        return isFailure(j) ? j : dirOf(j, scope);
      },
      async makeDir(name) {
        const bad = writable(name);
        if (bad !== undefined) return bad;
        try {
          await mkdir(child(name));
        } catch (err) {
          if (errnoCode(err) !== 'EEXIST') return fromErrno(err);
        }
        const j = await judge(child(name), 'fs.write', false, 'dir');
        return isFailure(j) ? j : dirOf(j, 'fs.write');
      },
      async writeTemp(forName, data, mode, announce, signal) {
        const bad = writable(forName);
        if (bad !== undefined) return bad;
        const tmp = `.${forName.slice(0, 100)}.skillctl-${randomBytes(6).toString('hex')}.tmp`;
        announce?.(`${h.real === '/' ? '' : h.real}/${tmp}`);
        let fh: FileHandle;
        try {
          // O_EXCL|O_NOFOLLOW: a new file, never an existing one or a link planted under its name.
          fh = await open(child(tmp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
        } catch (err) {
          return fromErrno(err);
        }
        try {
          await writeWhole(fh, data, signal);
          await fh.chmod(mode);
          await fh.sync();
        } catch (err) {
          await fh.close();
          await unlink(child(tmp)).catch(() => undefined);
          return err === STOPPED ? { kind: 'error', code: 'ECANCELED' } : fromErrno(err);
        }
        await fh.close();
        return tmp;
      },
      async rename(from, to) {
        // Both names: `.git` renamed aside leaves `.git/config` an ordinary path, and a directory
        // renamed over an ancestor of a protected path would bring its own content there.
        const bad = writable(from, 'move') ?? writable(to, 'move');
        if (bad !== undefined) return bad;
        try {
          await rename(child(from), child(to));
          return undefined;
        } catch (err) {
          return fromErrno(err);
        }
      },
      async remove(name) {
        const bad = writable(name, 'move');
        if (bad !== undefined) return bad;
        try {
          await unlink(child(name));
          return undefined;
        } catch (err) {
          return fromErrno(err);
        }
      },
      async removeDir(name) {
        const bad = writable(name, 'move');
        if (bad !== undefined) return bad;
        try {
          await rmdir(child(name));
          return undefined;
        } catch (err) {
          return fromErrno(err);
        }
      },
      close: () => h.fh.close(),
    };
  }

  async function checkForm(path: string, scope: DirScope): Promise<string | FsFailure> {
    const form = pathForm(path, cwd);
    if (form.ok) return form.absolute;
    // Asked through the gate, so the refusal is recorded like every other.
    const d = scope === 'fs.read' ? await gate.checkRead(path) : await gate.checkWrite(path);
    return d.allowed ? { kind: 'error', code: 'EINVAL' } : { kind: 'denied', decision: d };
  }

  return {
    async openFile(path) {
      const abs = await checkForm(path, 'fs.read');
      if (typeof abs !== 'string') return abs;
      const j = await judge(abs, 'fs.read', true, 'file');
      return isFailure(j) ? j : fileOf(j);
    },
    async openDir(path, scope) {
      const abs = await checkForm(path, scope);
      if (typeof abs !== 'string') return abs;
      const j = await judge(abs, scope, true, 'dir');
      return isFailure(j) ? j : dirOf(j, scope);
    },
  };
}
