/**
 * The journal of a pull's renames (`.skillctl/mcp-pull-journal.json`), so that a pull killed
 * between two renames (its first skill in place and its second not, or an earlier copy moved
 * aside and the new one not yet in) leaves a state the next holder of the write lock can put
 * right. Written, holding the lock, before the first rename; removed once the pull is kept or
 * undone. A journal found by a holder of the lock is therefore one whose writer no longer holds it:
 * a process that died, or a lock judged stale (file-lock.ts). That holder, pull or pin, reads the
 * journal before anything else:
 *
 * - when the origin records are the ones the pull was writing (their digest is in the journal),
 *   the pull is kept, and it is finished: what is not yet in place is moved in, the earlier copies
 *   moved aside are removed;
 * - otherwise it is undone: each new folder goes back to its scratch name, each earlier copy back
 *   where it was, and the scratch folders are removed.
 *
 * Each step looks at what is there before it acts, so a holder killed during the recovery leaves a
 * journal the next one recovers the same way. Scratch names carry the dead pull's process id
 * (scratch.ts), so what bears one is its own; a folder at a destination is moved out only when it
 * is the folder the pull wrote (its device, inode and birth time are in the journal) and holds
 * exactly the files the pull wrote (their digest too), never a folder something else put there
 * since. Both, since neither alone would do: a file system gives a freed inode to the next folder
 * made, and a journal is a file in the project, which a pull request can commit: one naming a
 * folder outside the project whose files its author knows (a published skill) had that folder
 * "undone", moved to a scratch name and removed. Its identity is what such an author cannot know.
 */
import { constants } from 'node:fs';
import { lstat, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { comparePaths, isSha256Digest, sha256, type Sha256Digest } from '../digest/index.js';
import { errnoCode, SkillctlError } from '../errors.js';
import { entryExists, readBounded, writeFileAtomic, type FileLockOptions } from '../fs/index.js';
import type { Move } from './move-into-place.js';
import { ORIGINS_FILE, originKey } from './origins.js';
import { isScratch } from './scratch.js';

export const PULL_JOURNAL = '.skillctl/mcp-pull-journal.json';
const MAX_BYTES = 16 * 1024 * 1024;
const ORIGINS_MAX_BYTES = 64 * 1024 * 1024;

export interface JournalMove extends Move {
  /** The digest of the skill's files (`filesDigest`): what the folder the pull wrote holds, wherever it was moved. */
  readonly files: Sha256Digest;
  /** The identity of the folder the pull wrote (`folderId`), which a rename keeps. */
  readonly folder: string;
}

interface Journal {
  readonly holder: { readonly pid: number; readonly hostname: string };
  /** sha256 of the origin records the pull writes: once the file holds them, the pull is kept. */
  readonly origins: Sha256Digest;
  readonly moves: readonly JournalMove[];
}

/** A pull that did not finish, put right: kept (finished) or undone. */
export interface Recovered {
  readonly holder: Journal['holder'];
  readonly kept: boolean;
  /** The destinations it had renamed into or out of, in its order. */
  readonly dirs: readonly string[];
}

const journalPath = (root: string): string => join(root, ...PULL_JOURNAL.split('/'));

/** The digest of a skill's files, each its path, size and digest, in path order. */
export function filesDigest(files: readonly { readonly path: string; readonly size: number; readonly digest: Sha256Digest }[]): Sha256Digest {
  return sha256(JSON.stringify([...files].sort((a, b) => comparePaths(a.path, b.path)).map((f) => [f.path, f.size, f.digest])));
}

/** `device:inode:birth time (ns)` of the directory at `path`; undefined when it is missing or not a directory. */
export async function folderId(path: string): Promise<string | undefined> {
  try {
    const st = await lstat(path, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeNs}` : undefined;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** `filesDigest` of the folder at `dir`; undefined when it is missing or holds anything but directories and regular files. */
async function folderDigest(dir: string): Promise<Sha256Digest | undefined> {
  const files: { path: string; size: number; digest: Sha256Digest }[] = [];
  const stack = [''];
  try {
    while (stack.length > 0) {
      const rel = stack.pop() as string;
      for (const e of await readdir(rel === '' ? dir : join(dir, rel), { withFileTypes: true })) {
        const path = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) stack.push(path);
        else if (!e.isFile()) return undefined;
        else {
          const bytes = await readFile(join(dir, path), { flag: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK });
          files.push({ path, size: bytes.length, digest: sha256(bytes) });
        }
      }
    }
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
  return filesDigest(files);
}

/** Records the renames `moves` the pull `holder` is about to make, and the digest of the records it will write. */
export async function beginJournal(root: string, holder: Pick<FileLockOptions, 'pid' | 'hostname'>, origins: Sha256Digest, moves: readonly JournalMove[]): Promise<void> {
  const journal: Journal = { holder: { pid: holder.pid, hostname: holder.hostname }, origins, moves };
  await writeFileAtomic(journalPath(root), `${JSON.stringify({ version: 1, ...journal }, null, 2)}\n`, 0o644, holder);
}

/** Whether a pull left a journal: the next holder of the write lock has something to put right. */
export async function journalPending(root: string): Promise<boolean> {
  return entryExists(journalPath(root));
}

/** Removes the journal: the pull is kept or undone. */
export async function endJournal(root: string): Promise<void> {
  await unlink(journalPath(root)).catch((err: unknown) => {
    if (errnoCode(err) !== 'ENOENT') throw err;
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether `path` is a scratch folder of `kind` that a pull makes for `dir`: beside it (place.ts
 * makes both in the same folder) and named after it. A journal's word moves and removes folders,
 * so one that pairs a destination with a scratch name elsewhere, or of another skill, is refused.
 */
function scratchOf(dir: string, path: unknown, kind: 'pull' | 'old'): path is string {
  if (typeof path !== 'string' || !isAbsolute(path) || dirname(path) !== dirname(dir)) return false;
  const name = basename(path);
  return isScratch(name, kind) && name.startsWith(`.${basename(dir)}.${kind}-`);
}

/** A move as journaled; its scratch and aside must carry scratch names beside its folder, so no other folder is ever removed. */
function toMove(v: unknown): JournalMove | undefined {
  if (!isObject(v) || typeof v.dir !== 'string' || !isAbsolute(v.dir) || !isSha256Digest(v.files) || typeof v.folder !== 'string') return undefined;
  if (!scratchOf(v.dir, v.scratch, 'pull')) return undefined;
  const move = { scratch: v.scratch, dir: v.dir, files: v.files, folder: v.folder };
  if (v.aside === undefined) return move;
  return scratchOf(v.dir, v.aside, 'old') ? { ...move, aside: v.aside } : undefined;
}

function toJournal(bytes: Buffer): Journal | undefined {
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(v) || v.version !== 1 || !isObject(v.holder) || !isSha256Digest(v.origins) || !Array.isArray(v.moves)) return undefined;
  const { pid, hostname } = v.holder;
  if (typeof pid !== 'number' || typeof hostname !== 'string') return undefined;
  const moves = (v.moves as unknown[]).map(toMove);
  return moves.every((m) => m !== undefined) ? { holder: { pid, hostname }, origins: v.origins, moves: moves as JournalMove[] } : undefined;
}

/** The pull kept: every skill in place, every earlier copy removed. */
async function finish(m: JournalMove): Promise<void> {
  if (!(await entryExists(m.dir)) && (await entryExists(m.scratch))) await rename(m.scratch, m.dir);
  if (!(await entryExists(m.dir))) throw Object.assign(new Error(`${m.dir} is missing and its pulled copy is gone`), { code: 'ENOENT' });
  if (m.aside !== undefined) await rm(m.aside, { recursive: true, force: true });
}

/**
 * The pull undone: its folder back out (to its scratch name, then removed), the earlier copy back
 * in. The pull's folder is at the destination only if it was renamed in: for a replacement, only
 * while the earlier copy is aside (moved there first); for a new skill, only once the scratch
 * folder is gone. Even then it is moved out only if it is the folder the pull wrote, holding the pull's files.
 */
async function undo(m: JournalMove): Promise<void> {
  const renamedIn = m.aside !== undefined ? await entryExists(m.aside) : !(await entryExists(m.scratch));
  if (renamedIn && (await entryExists(m.dir))) {
    if ((await folderId(m.dir)) === m.folder && (await folderDigest(m.dir)) === m.files) await rename(m.dir, m.scratch);
    else if (m.aside !== undefined) throw Object.assign(new Error(`${m.dir} holds other files than the pull wrote, and its earlier copy is aside`), { code: 'EEXIST' });
  }
  if (m.aside !== undefined && (await entryExists(m.aside)) && !(await entryExists(m.dir))) await rename(m.aside, m.dir);
  await rm(m.scratch, { recursive: true, force: true });
}

/**
 * Finishes or undoes the pull the journal of `root` describes, then removes the journal; nothing
 * when there is none. Call only holding the write lock. Throws OUTPUT_UNWRITABLE, keeping the
 * journal, when the journal is not one skillctl wrote or a folder cannot be moved.
 */
export async function recoverPull(root: string): Promise<Recovered | undefined> {
  const path = journalPath(root);
  const read = await readBounded(path, { maxBytes: MAX_BYTES, followLinks: false });
  if (!read.ok && read.reason === 'missing') return undefined;
  const journal = read.ok ? toJournal(read.bytes) : undefined;
  if (journal === undefined) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `${PULL_JOURNAL} is not a journal skillctl wrote: the pull it describes cannot be finished or undone`, {
      hint: `check the folders pulled into, then remove ${PULL_JOURNAL}`,
    });
  }
  const records = await readBounded(join(root, ...ORIGINS_FILE.split('/')), { maxBytes: ORIGINS_MAX_BYTES, followLinks: false });
  const kept = records.ok && sha256(records.bytes) === journal.origins;
  try {
    if (kept) for (const m of journal.moves) await finish(m);
    else for (const m of [...journal.moves].reverse()) await undo(m);
  } catch (err) {
    const { pid, hostname } = journal.holder;
    throw new SkillctlError('OUTPUT_UNWRITABLE', `a pull that did not finish (process ${pid} on ${hostname}) could not be ${kept ? 'finished' : 'undone'}: ${errnoCode(err) ?? String(err)}`, {
      cause: err,
      hint: `put the folders ${PULL_JOURNAL} names where they belong, then remove it`,
    });
  }
  await endJournal(root);
  return { holder: journal.holder, kept, dirs: journal.moves.map((m) => m.dir) };
}

/** The warning that says a pull that died was put right, and how; folders named as the origin records key them. */
export function recoveredDiagnostic(root: string, r: Recovered): Diagnostic {
  const { pid, hostname } = r.holder;
  const how = r.kept ? 'finished (its origin records had been written)' : 'undone (its origin records had not been written)';
  return diag('MCP_PULL_RECOVERED', `a pull by process ${pid} on ${hostname} stopped between its renames; it was ${how}: ${r.dirs.map((d) => originKey(root, d)).join(', ')}`, {
    file: PULL_JOURNAL,
  });
}
