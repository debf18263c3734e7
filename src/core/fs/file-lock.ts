/**
 * A write lock between processes: a lock file created with O_EXCL beside the file it guards.
 * Whoever creates it holds the lock; the others wait. A lock whose holder died (same host, no such
 * process) or that is older than `staleMs` is stale and is taken over, so a crash never blocks
 * the project for good.
 *
 * Taking over is careful: the stale file is renamed away (only one process can rename it), and if
 * what was renamed turns out not to be the stale lock that was judged (another process had
 * replaced it in between), it is linked back without overwriting anything.
 */
import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import { errnoCode, SkillctlError } from '../errors.js';
import { asOutputWrite } from './output-error.js';
import { describeRefusal, readBounded } from './read-bounded.js';

/** A lock file holds one line of JSON; anything larger was not written by a holder. */
const HOLDER_MAX_BYTES = 4096;

export interface FileLockOptions {
  /** Milliseconds since the epoch. */
  now(): number;
  /** This process's id and host, recorded in the lock file. */
  readonly pid: number;
  readonly hostname: string;
  /** Whether a process with this id exists on this host. */
  isAlive(pid: number): boolean;
  sleep(ms: number): Promise<void>;
  /** Give up after waiting this long (LOCK_BUSY). */
  readonly timeoutMs: number;
  /** A lock file older than this is stale whoever holds it. */
  readonly staleMs: number;
}

interface Holder {
  readonly pid: number;
  readonly hostname: string;
  readonly token: string;
}

/**
 * The holder recorded in the lock file at `path`; undefined when there is none. A lock file that
 * is a directory, a FIFO or a link was not made by a holder and cannot be taken over: it is
 * refused (OUTPUT_UNWRITABLE naming it) before it is opened, so a FIFO cannot block the command.
 */
async function readHolder(path: string): Promise<{ holder?: Holder; mtimeMs: number } | undefined> {
  const r = await readBounded(path, { maxBytes: HOLDER_MAX_BYTES, followLinks: false });
  if (!r.ok) {
    if (r.reason === 'missing') return undefined;
    throw new SkillctlError('OUTPUT_UNWRITABLE', `the write lock ${describeRefusal(r, path)}`, { hint: `remove ${path}; skillctl creates it while it writes` });
  }
  try {
    const h = JSON.parse(r.bytes.toString('utf8')) as Holder;
    if (typeof h.pid === 'number' && typeof h.hostname === 'string' && typeof h.token === 'string') return { holder: h, mtimeMs: r.mtimeMs };
  } catch {
    // A holder that crashed between creating and writing the file leaves it empty.
  }
  return { mtimeMs: r.mtimeMs };
}

async function tryCreate(path: string, holder: Holder): Promise<boolean> {
  return asOutputWrite(path, () => create(path, holder));
}

async function create(path: string, holder: Holder): Promise<boolean> {
  try {
    const fh = await open(path, 'wx', 0o644);
    try {
      await fh.writeFile(JSON.stringify(holder) + '\n');
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  }
}

/** `<lock>.stale.<tag>`: a stale lock file renamed aside while it is taken over, then removed. */
const ASIDE = /^\.stale\.[0-9a-f]{12}$/;

/**
 * Whether `name` is a stale lock of the lock file named `lock` set aside by `takeOver`: a process
 * killed between the rename and the removal leaves it. It names no process; its time is the
 * stale lock's.
 */
export function isLockAside(name: string, lock: string): boolean {
  return name.startsWith(lock) && ASIDE.test(name.slice(lock.length));
}

/** Removes the stale lock at `path` judged from `seen`; false when someone else got there first. */
async function takeOver(path: string, seen: Holder | undefined): Promise<void> {
  const aside = `${path}.stale.${randomBytes(6).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return;
    throw err;
  }
  const moved = await readHolder(aside);
  if (seen !== undefined && moved?.holder?.token !== seen.token) {
    // Not the lock that was judged stale: put it back unless a new one already exists.
    try {
      await link(aside, path);
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }
  await unlink(aside).catch(() => undefined);
}

/** Runs `fn` while holding the lock file `path`. */
export async function withFileLock<T>(path: string, opts: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  const me: Holder = { pid: opts.pid, hostname: opts.hostname, token: randomBytes(12).toString('hex') };
  const started = opts.now();
  let delay = 10;
  for (;;) {
    if (await tryCreate(path, me)) break;
    const current = await readHolder(path);
    if (current !== undefined) {
      const h = current.holder;
      const dead = h !== undefined && h.hostname === opts.hostname && h.pid !== opts.pid && !opts.isAlive(h.pid);
      const old = opts.now() - current.mtimeMs > (h === undefined ? Math.min(opts.staleMs, 5_000) : opts.staleMs);
      if (dead || old) {
        await takeOver(path, h);
        continue;
      }
    }
    if (opts.now() - started > opts.timeoutMs) {
      throw new SkillctlError('LOCK_BUSY', `another process holds ${path}`, {
        hint: current?.holder !== undefined ? `held by process ${current.holder.pid} on ${current.holder.hostname}` : 'try again',
      });
    }
    await opts.sleep(delay);
    delay = Math.min(delay * 2, 200);
  }
  try {
    return await fn();
  } finally {
    const now = await readHolder(path);
    if (now?.holder?.token === me.token) await unlink(path).catch(() => undefined);
  }
}
