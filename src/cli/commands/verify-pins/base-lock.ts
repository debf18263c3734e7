/**
 * `verify-pins --base REV`: the lock at the same place in REV's tree, which the lock being
 * verified is compared with. It is read before anything else, whatever lock the change holds: a
 * comparison that runs only for some heads is one a change can opt out of (rewriting the lock as
 * a provenact lock once skipped it, and with it a REV that names no commit).
 */
import { SkillctlError } from '../../../core/errors.js';
import { LOCK_MAX_BYTES, loadLock, type LoadedLock } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { openTree } from './git-tree.js';

export interface BaseLock {
  /** The base's lock; undefined when REV's tree has none there (the change brings the first lock). */
  readonly loaded?: LoadedLock;
  /** How the base is named in findings: REV and its commit id. */
  readonly label: string;
}

/**
 * The lock at `lockPath` in the tree of the commit `rev` names. Throws GIT_TREE_UNREADABLE when
 * `rev` names no commit, and LOCK_UNREADABLE when the lock is there but cannot be read or does
 * not load: a base that cannot be compared with is no reason to pass the change.
 */
export async function loadBaseLock(ctx: Context, rev: string, lockPath: string, lockFile: string): Promise<BaseLock> {
  const base = await openTree(ctx.io.cwd, ctx.io.env, { rev });
  try {
    const label = `${rev} (${base.label.slice(0, 12)})`;
    const read = await base.ops.readBounded(lockPath, { maxBytes: LOCK_MAX_BYTES });
    if (!read.ok && read.reason === 'missing') return { label };
    if (!read.ok) throw new SkillctlError('LOCK_UNREADABLE', `cannot read the lock file ${lockFile} of --base ${rev}: ${read.reason}`);
    const load = loadLock(read.bytes, `${lockFile} (${rev})`);
    if (load.loaded === undefined) {
      const why = load.diagnostics[0]?.message ?? 'it is not a lock';
      throw new SkillctlError('LOCK_UNREADABLE', `the lock file ${lockFile} of --base ${rev} does not load: ${why}`, {
        hint: 'compare with a base whose lock verifies, e.g. the branch the change goes into',
      });
    }
    return { loaded: load.loaded, label };
  } finally {
    base.close();
  }
}
