/**
 * The renames that put pulled skills in place, all or nothing. A pull of several skills is one
 * install: if the third rename fails, the first two must not stay, since no origin is recorded
 * for them and a later pull would take them for local skills and refuse to replace them. So each
 * rename done is remembered, and a failure undoes them in reverse order: the new folder goes back
 * to its scratch name and the earlier copy it replaced comes back from where it was moved aside.
 * The earlier copies are removed only once the caller has recorded the pull (`commit`).
 */
import { rename, rm } from 'node:fs/promises';
import { errnoCode, SkillctlError } from '../errors.js';

export interface Move {
  /** The folder written for the skill. */
  readonly scratch: string;
  /** Where the skill goes. */
  readonly dir: string;
  /** Where the earlier copy at `dir` is moved while the pull is not done; absent when none is replaced. */
  readonly aside?: string;
}

export interface Moved {
  /** Puts everything back as it was before `moveIntoPlace`, after `cause` failed the pull. */
  undo(cause: unknown): Promise<void>;
  /** Removes the earlier copies: the pull is kept. */
  commit(): Promise<void>;
}

interface Step {
  readonly from: string;
  readonly to: string;
}

/**
 * Reverses `done`, last first. A step that cannot be reversed (something else took its path
 * meanwhile) is not forced over what is there; the others are still tried, and what was left
 * out of place is named, so the user is never told a failed pull changed nothing when it did.
 */
async function reverse(done: readonly Step[], cause: unknown): Promise<void> {
  const left: string[] = [];
  for (const s of [...done].reverse()) {
    try {
      await rename(s.to, s.from);
    } catch (err) {
      left.push(`${s.to} (not moved back to ${s.from}: ${errnoCode(err) ?? String(err)})`);
    }
  }
  if (left.length > 0) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `the pull failed (${errnoCode(cause) ?? String(cause)}) and could not be undone: ${left.join('; ')}`, {
      cause,
      hint: 'move these folders back by hand; nothing was recorded for them in .skillctl/mcp-origins.json',
    });
  }
}

/** Renames every `scratch` to its `dir`, or none: a failed rename is thrown after the others are undone. */
export async function moveIntoPlace(moves: readonly Move[]): Promise<Moved> {
  const done: Step[] = [];
  const step = async (from: string, to: string): Promise<void> => {
    // rename(2) of a directory refuses a target that is a file or a non-empty directory: a skill
    // that appeared since the collision check (made by something that does not take the lock)
    // is never written over.
    await rename(from, to);
    done.push({ from, to });
  };
  try {
    for (const m of moves) {
      if (m.aside !== undefined) await step(m.dir, m.aside);
      await step(m.scratch, m.dir);
    }
  } catch (err) {
    await reverse(done, err);
    throw err;
  }
  return {
    undo: (cause) => reverse(done, cause),
    commit: async () => {
      for (const m of moves) if (m.aside !== undefined) await rm(m.aside, { recursive: true, force: true });
    },
  };
}
