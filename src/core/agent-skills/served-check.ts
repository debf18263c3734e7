/**
 * The per-file half of a later listing, shared with another thread. A listing must `lstat` every
 * file it serves, to see an edit in place (a directory's times do not move when a file in it is
 * rewritten); on 10,000 files those calls are most of the listing. They do not depend on one
 * another, so another thread can make some of them while this one makes the rest: a checker
 * holds sets of files (a skill's, with the identities they were hashed under) and says which
 * sets are still exactly as given. What it answers is only ever "unchanged" for a set it checked
 * in this listing; a set it did not answer for is checked here, so a checker that fails or is
 * slow costs time, never a stale digest.
 */
import { lstatSync } from 'node:fs';
import { stillIs, type FileIdentity } from './served-walk.js';

/** Checks sets of files on another thread. */
export interface IdentityChecker {
  /**
   * Takes the set to check from now on (files by absolute path, with the identity each must
   * still have); returns its id, or undefined when this thread is to check it (a share of the
   * sets stays here, so both threads work).
   */
  add(paths: readonly string[], identities: readonly FileIdentity[]): number | undefined;
  /** Drops a set (its skill was hashed again or forgotten). */
  remove(id: number): void;
  /** Sends what was added or removed since the last call (at the end of a listing). */
  flush(): void;
  /**
   * Asks for a check of every set it holds, now, and returns the wait for its answer: the ids of
   * the sets whose files are all unchanged. The caller works meanwhile and waits after; a wait is
   * bounded from its start, not from the request, so that work is not counted against the checker.
   */
  check(): () => Promise<ReadonlySet<number>>;
  /** Stops the thread (the server is done); later checks answer for nothing. */
  close(): void;
}

/** Fields of an identity, in the order they are packed. */
const FIELDS = 5;

/** Identities packed into one array (a structured clone of one typed array, not of 10,000 objects). */
export function packIdentities(identities: readonly FileIdentity[]): Float64Array {
  const out = new Float64Array(identities.length * FIELDS);
  identities.forEach((id, i) => out.set([id.dev, id.ino, id.size, id.mtimeMs, id.ctimeMs], i * FIELDS));
  return out;
}

/** The identity at `i` of a packed array. */
function unpacked(packed: Float64Array, i: number): FileIdentity {
  const at = i * FIELDS;
  return { dev: packed[at] as number, ino: packed[at + 1] as number, size: packed[at + 2] as number, mtimeMs: packed[at + 3] as number, ctimeMs: packed[at + 4] as number };
}

/** A set as a checker keeps it. */
export interface PackedSet {
  readonly paths: readonly string[];
  readonly identities: Float64Array;
}

/** Whether every file of the set is still (links not followed) the file of its identity; an ABSENT one, still no file. */
export function setUnchanged(set: PackedSet): boolean {
  for (let i = 0; i < set.paths.length; i++) {
    let st;
    try {
      st = lstatSync(set.paths[i] as string, { throwIfNoEntry: false });
    } catch {
      return false;
    }
    if (!stillIs(st, unpacked(set.identities, i))) return false;
  }
  return true;
}
