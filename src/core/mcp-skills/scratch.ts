/**
 * The scratch folders a pull writes its skills into, beside their destinations, named so that a
 * later pull can tell which are abandoned. A pull killed while it writes them, or while it waits
 * for the write lock, leaves them behind, and no journal names them yet (pull-journal.ts is
 * written only once the lock is held). So each name carries its maker: its process id and a
 * digest of its host's name (fs/maker.ts). A folder is abandoned when its maker ran on this host
 * and no process of that id is alive (the test the write lock itself applies to a holder,
 * file-lock.ts), or when its maker ran on another host, whose processes cannot be looked up from
 * here, and the folder has not changed for longer than the lock's takeover age: a pull writes its
 * folders, then waits for the lock at most its timeout (30 s), and a lock held longer than that
 * age is taken from its holder anyway. A folder of a live process of this host (another pull
 * waiting for the lock, or one whose id was reused), of this process, or of another host and
 * younger than that is never touched.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hostTag, isAbandoned, type FileLockOptions, type Maker } from '../fs/index.js';

/** What a scratch folder holds: a pulled skill not yet in place, or the earlier copy it replaces. */
export type ScratchKind = 'pull' | 'old';

/** `.<name>.<kind>-<pid>-<host>-<tag>`: the maker's id and host digest, then a random tag. */
const SCRATCH_NAME = /^\..+\.(pull|old)-(\d+)-([0-9a-f]{12})-[0-9a-f]{12}$/;

/** What judges a leftover: this process, and the lock's liveness test, clock and takeover age. */
export type SweepOptions = Pick<FileLockOptions, 'pid' | 'hostname' | 'isAlive' | 'now' | 'staleMs'>;

/** The name of `name`'s scratch folder of `kind` for the pull `maker` runs, `tag` (12 hex digits) telling its pulls apart. */
export function scratchName(name: string, kind: ScratchKind, maker: Maker, tag: string): string {
  return `.${name}.${kind}-${maker.pid}-${hostTag(maker.hostname)}-${tag}`;
}

/** Whether `entry` names a scratch folder of `kind`. */
export function isScratch(entry: string, kind: ScratchKind): boolean {
  return SCRATCH_NAME.exec(entry)?.[1] === kind;
}

/** The time `path` last changed, without following a link; undefined when it is gone. */
async function changedAt(path: string): Promise<number | undefined> {
  try {
    return (await lstat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Removes from `outDir` the pull scratch folders of pulls that died (above), and returns their
 * names. Only `pull` folders: they hold copies of what a server sent, while an `old` folder may
 * be the only copy of a skill, and is the journal's to put back (pull-journal.ts).
 */
export async function sweepScratch(outDir: string, lock: SweepOptions): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch {
    return [];
  }
  const here = hostTag(lock.hostname);
  const dead: string[] = [];
  for (const e of entries) {
    const m = SCRATCH_NAME.exec(e);
    if (m?.[1] !== 'pull') continue;
    const maker = { pid: Number(m[2]), host: m[3] as string };
    // Only another host's folder needs its time: this host's are judged by their maker's pid.
    const mtimeMs = maker.host === here ? 0 : await changedAt(join(outDir, e));
    if (mtimeMs !== undefined && isAbandoned(maker, mtimeMs, lock)) dead.push(e);
  }
  await Promise.all(dead.map((e) => rm(join(outDir, e), { recursive: true, force: true })));
  return dead.sort();
}
