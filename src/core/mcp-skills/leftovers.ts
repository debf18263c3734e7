/**
 * What processes killed at the wrong moment leave in the project's `.skillctl/`, and its removal
 * by the next holder of the pulls' write lock (pull-lock.ts), pull or pin:
 *
 * - temporary files of the atomic writes of the origin records, the journal and the notes below
 *   (fs/atomic-write.ts), left by a kill between the write and the rename;
 * - a stale write lock set aside while it was taken over (file-lock.ts), left by a kill between
 *   the rename and the removal;
 * - the note a pull writes before its scratch folders (`mcp-pull-out.<pid>-<host>-<tag>.json`,
 *   naming the folder it pulls into), left by a pull killed before it placed them, most often
 *   while it waited for the lock. The note is how a later pull into another folder, or pin, finds
 *   that folder: the scratch folders the dead pull left there are swept as its own pull would
 *   sweep them (scratch.ts), then the note is removed.
 *
 * Only names this code makes are looked at, only regular files, and only those abandoned by the
 * rule of fs/maker.ts: a writer of this host that no longer exists, or, for another host's (or a
 * name that carries no host), no change for longer than the lock's takeover age. A file a live
 * process may still be writing is never removed.
 */
import { lstat, readdir, unlink } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { errnoCode } from '../errors.js';
import { asOutputWrite, createFileAtomic, hostTag, isAbandoned, isLockAside, makeDirs, readBounded, tempFileOf, type Maker, type NamedMaker } from '../fs/index.js';
import { ORIGINS_FILE, ORIGINS_LOCK } from './origins.js';
import { PULL_JOURNAL } from './pull-journal.js';
import { sweepScratch, type SweepOptions } from './scratch.js';

/** `mcp-pull-out.<pid>-<host>-<tag>.json`: the pull's maker and tag, as its scratch folders carry them. */
const NOTE_NAME = /^mcp-pull-out\.(\d+)-([0-9a-f]{12})-[0-9a-f]{12}\.json$/;
const NOTE_MAX_BYTES = 64 * 1024;

/** The files of `.skillctl/` whose temporary files are swept: those written holding the lock, and the notes. */
const SWEPT_TEMPS = new Set([basename(ORIGINS_FILE), basename(PULL_JOURNAL)]);

const skillctlDir = (root: string): string => join(root, '.skillctl');

/** Records, before the pull `maker` (`tag`) writes scratch folders into `outDir`, where they go; returns the note's path, for `endNote`. */
export async function notePull(root: string, outDir: string, maker: Maker, tag: string): Promise<string> {
  const dir = skillctlDir(root);
  await asOutputWrite('.skillctl', () => makeDirs(dir));
  const path = join(dir, `mcp-pull-out.${maker.pid}-${hostTag(maker.hostname)}-${tag}.json`);
  // Created, not renamed over: its name is the pull's own (pid, host, random tag), so none is there.
  await asOutputWrite(`.skillctl/${basename(path)}`, () => createFileAtomic(path, `${JSON.stringify({ version: 1, outDir })}\n`, 0o644, maker));
  return path;
}

/** Removes a note: the pull's scratch folders are gone. */
export async function endNote(path: string): Promise<void> {
  await unlink(path).catch((err: unknown) => {
    if (errnoCode(err) !== 'ENOENT') throw err;
  });
}

/** The folder a note names; undefined when it is not one a pull wrote. */
async function notedOutDir(path: string): Promise<string | undefined> {
  const r = await readBounded(path, { maxBytes: NOTE_MAX_BYTES, followLinks: false });
  if (!r.ok) return undefined;
  try {
    const v = JSON.parse(r.bytes.toString('utf8')) as { version?: unknown; outDir?: unknown };
    return v.version === 1 && typeof v.outDir === 'string' && isAbsolute(v.outDir) ? v.outDir : undefined;
  } catch {
    return undefined;
  }
}

/** Who left `name`, when it is a leftover this code makes; `null` for one that names no process (judged by its age alone). */
function makerOf(name: string): NamedMaker | null | undefined {
  const temp = tempFileOf(name);
  if (temp !== undefined) return SWEPT_TEMPS.has(temp.target) || NOTE_NAME.test(temp.target) ? temp.maker : undefined;
  if (isLockAside(name, basename(ORIGINS_LOCK))) return null;
  const note = NOTE_NAME.exec(name);
  return note === null ? undefined : { pid: Number(note[1]), host: note[2] as string };
}

/**
 * Removes the leftovers (above) of `root`'s `.skillctl/` whose makers are gone, and returns
 * their names. Call only holding the pulls' write lock, after a dead pull's journal was put right
 * (its scratch folders are the journal's until then).
 */
export async function sweepLeftovers(root: string, lock: SweepOptions): Promise<string[]> {
  const dir = skillctlDir(root);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of entries.sort()) {
    const maker = makerOf(name);
    if (maker === undefined) continue;
    const path = join(dir, name);
    let mtimeMs: number;
    try {
      const st = await lstat(path);
      // A directory or a link under a name of ours was not made by this code: left alone.
      if (!st.isFile()) continue;
      mtimeMs = st.mtimeMs;
    } catch {
      continue;
    }
    if (maker === null ? lock.now() - mtimeMs <= lock.staleMs : !isAbandoned(maker, mtimeMs, lock)) continue;
    if (NOTE_NAME.test(name)) {
      const outDir = await notedOutDir(path);
      if (outDir !== undefined) await sweepScratch(outDir, lock);
    }
    await endNote(path);
    removed.push(name);
  }
  return removed;
}
