/**
 * Who made a file or folder that outlives a process it was killed in (a temporary file, a pull's
 * scratch folder), as its name records it: the process's id and a digest of its host's name. A
 * later process tells an abandoned one from one still being written only by that record: a pid
 * is checked only on the host it belongs to, anything else only by its age.
 */
import { createHash } from 'node:crypto';
import type { FileLockOptions } from './file-lock.js';

/** A process, as the lock options name it. */
export type Maker = Pick<FileLockOptions, 'pid' | 'hostname'>;

/** A short digest of a host name: names hold any characters, and file names should not. */
export function hostTag(hostname: string): string {
  return createHash('sha256').update(hostname).digest('hex').slice(0, 12);
}

/** A maker as a name records it: `host` a `hostTag`, absent when the name carries none (written before hosts were named). */
export interface NamedMaker {
  readonly pid: number;
  readonly host?: string;
}

/**
 * Whether what `maker` left, last changed at `mtimeMs`, is abandoned: made on this host by
 * another process that no longer exists (the test the write lock applies to a holder,
 * file-lock.ts), or, made on another host or by an unnamed one, older than the lock's takeover age
 * (`staleMs`), after which the lock is taken from its holder whoever it is. Never this process's.
 */
export function isAbandoned(maker: NamedMaker, mtimeMs: number, lock: Pick<FileLockOptions, 'pid' | 'hostname' | 'isAlive' | 'now' | 'staleMs'>): boolean {
  if (maker.host === hostTag(lock.hostname)) return maker.pid !== lock.pid && !lock.isAlive(maker.pid);
  return lock.now() - mtimeMs > lock.staleMs;
}
