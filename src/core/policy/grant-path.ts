/**
 * Where a policy path leads, found in one walk that judges every symlink on the way.
 *
 * A link lying in a directory this user owns or can write may have been made by a skill: another
 * run's, under a policy that let it write there, or one swapping it back and forth while this run
 * starts. Following it would make its target the grant. So the walk refuses such a link instead
 * (the policy names the target itself), and follows only links the user cannot have made through
 * a skill: those in directories another user owns and only others may write (root, for
 * /lib -> usr/lib). The walk is the only resolution of the path: resolving it a second time to
 * report where it leads would open a window between the judgement and the answer.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { walkPath } from '../fs/path-walk.js';
import { within } from '../fs/within.js';

export type GrantPath =
  | { readonly ok: true; readonly real: string }
  /** `link` lies strictly inside one of this policy's own write grants. */
  | { readonly ok: false; readonly kind: 'in-write-grant'; readonly link: string }
  /**
   * `link` lies in a directory this user owns or can write; `target` is what it holds, and
   * `leadsTo` the path it would make of the whole (its target's own links not followed): for
   * messages, and for what the refusal covers.
   */
  | { readonly ok: false; readonly kind: 'user-writable'; readonly link: string; readonly target: string; readonly leadsTo: string }
  /** A loop of links, a permission error, or another failure the kernel would report. */
  | { readonly ok: false; readonly kind: 'unresolvable'; readonly reason: string };

export interface GrantPathOptions {
  /** This policy's write grants, as written and as real paths. */
  readonly writeGrants: readonly string[];
  /** Whether a process of this user could have made an entry in `dir` (userMayWrite unless a test says otherwise). */
  readonly canWrite?: (dir: string) => Promise<boolean>;
}

/**
 * Whether a process of this user could have made an entry in `dir`: it may write there, or it owns
 * the directory (and so may make it writable again: a skill that planted a link and then took the
 * write bit away must not have its link followed).
 */
async function userMayWrite(dir: string): Promise<boolean> {
  const uid = process.geteuid?.();
  try {
    if (uid !== undefined && (await stat(dir)).uid === uid) return true;
    await access(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves the absolute, normal `path` entry by entry (path-walk.ts). A missing entry is walked
 * as written (a file about to be created), as realpath's callers here expect.
 */
export async function resolveGrantPath(path: string, opts: GrantPathOptions): Promise<GrantPath> {
  const canWrite = opts.canWrite ?? userMayWrite;
  const writable = new Map<string, Promise<boolean>>();
  const walked = await walkPath<GrantPath>(path, async (step) => {
    if (step.kind === 'unknown') return { ok: false, kind: 'unresolvable', reason: `${step.entry}: ${step.error ?? 'unknown error'}` };
    if (step.kind !== 'link' || step.target === undefined) return undefined;
    if (opts.writeGrants.some((w) => within(step.entry, w) && step.entry !== w)) return { ok: false, kind: 'in-write-grant', link: step.entry };
    let mayWrite = writable.get(step.dir);
    if (mayWrite === undefined) writable.set(step.dir, (mayWrite = canWrite(step.dir)));
    if (!(await mayWrite)) return undefined;
    return { ok: false, kind: 'user-writable', link: step.entry, target: step.target, leadsTo: posix.resolve(step.dir, step.target, ...step.rest) };
  });
  if ('stopped' in walked) return walked.stopped;
  if ('loop' in walked) return { ok: false, kind: 'unresolvable', reason: `${path}: too many levels of symbolic links` };
  return { ok: true, real: walked.real };
}
