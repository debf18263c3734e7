/**
 * The scratch folders a pull writes its skills into, beside their destinations, named so that a
 * later pull can tell which are abandoned. A pull killed while it writes them, or while it waits
 * for the write lock, leaves them behind, and no journal names them yet (pull-journal.ts is
 * written only once the lock is held). So each name carries its maker: its process id and a
 * digest of its host's name. A folder is abandoned when its maker ran on this host and no
 * process of that id is alive: the test the write lock itself applies to a holder (file-lock.ts).
 * A folder of a live process (another pull waiting for the lock, or one whose id was reused), of
 * this process, or of another host is never touched.
 */
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLockOptions } from '../fs/index.js';

/** What a scratch folder holds: a pulled skill not yet in place, or the earlier copy it replaces. */
export type ScratchKind = 'pull' | 'old';

/** `.<name>.<kind>-<pid>-<host>-<tag>`: the maker's id and host digest, then a random tag. */
const SCRATCH_NAME = /^\..+\.(pull|old)-(\d+)-([0-9a-f]{12})-[0-9a-f]{12}$/;

type Maker = Pick<FileLockOptions, 'pid' | 'hostname'>;

/** A short digest of a host name: names hold any characters, and folder names should not. */
function hostTag(hostname: string): string {
  return createHash('sha256').update(hostname).digest('hex').slice(0, 12);
}

/** The name of `name`'s scratch folder of `kind` for the pull `maker` runs, `tag` (12 hex digits) telling its pulls apart. */
export function scratchName(name: string, kind: ScratchKind, maker: Maker, tag: string): string {
  return `.${name}.${kind}-${maker.pid}-${hostTag(maker.hostname)}-${tag}`;
}

/** Whether `entry` names a scratch folder of `kind`. */
export function isScratch(entry: string, kind: ScratchKind): boolean {
  return SCRATCH_NAME.exec(entry)?.[1] === kind;
}

/**
 * Removes from `outDir` the pull scratch folders of pulls that died on this host, and returns
 * their names. Only `pull` folders: they hold copies of what a server sent, while an `old` folder
 * may be the only copy of a skill, and is the journal's to put back (pull-journal.ts).
 */
export async function sweepScratch(outDir: string, lock: Maker & Pick<FileLockOptions, 'isAlive'>): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch {
    return [];
  }
  const here = hostTag(lock.hostname);
  const dead = entries.filter((e) => {
    const m = SCRATCH_NAME.exec(e);
    if (m?.[1] !== 'pull' || m[3] !== here) return false;
    const pid = Number(m[2]);
    return pid !== lock.pid && !lock.isAlive(pid);
  });
  await Promise.all(dead.map((e) => rm(join(outDir, e), { recursive: true, force: true })));
  return dead.sort();
}
