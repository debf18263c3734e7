/**
 * The passes that lookups for directory reads share (served-catalogue.ts). See SHARED_PASS_COSTS.
 */
import type { ServedWalker } from './served-walk.js';

/**
 * How many times its own cost a pass begun by a directory read is shared with later ones. The
 * answer of a directory read is the skill's shape, and checking it is a pass over every directory
 * of the skill: a read of its own each would make a client's walk of a skill (a read per
 * directory, as `pull skill://` makes) cost the square of the directories (a skill of 10,000
 * sibling directories: 86 s of the server for the walk, other sessions waiting). Shared so, a
 * walk costs time linear in them, passes take at most about a quarter of the server's time while
 * reads keep coming, and an answer is never older than a few times what a pass of its own would
 * take (a skill of a few directories: a millisecond or so). The files a walk then reads are each
 * checked when they are opened, whatever pass listed them (served-read.ts).
 */
export const SHARED_PASS_COSTS = 4;

/** The last pass `begin` began, and its cost once its lookup is done. */
interface SharedPass {
  readonly pass: number;
  cost: number | undefined;
}

export class SharedPasses {
  #last: SharedPass | undefined;

  constructor(private readonly walker: ServedWalker) {}

  /**
   * For a lookup whose answer is the shape itself (a directory read): begins a pass unless the
   * walker's current one was begun here and is still under way, or ended and began less than
   * SHARED_PASS_COSTS times its cost ago. Returns what the caller calls when its lookup is done,
   * which records the cost of a pass it began.
   */
  begin(): () => void {
    const last = this.#last;
    const age = this.walker.passAge();
    if (last?.pass === this.walker.pass && age >= 0 && (last.cost === undefined || age < SHARED_PASS_COSTS * last.cost)) return () => undefined;
    this.walker.begin();
    const mine: SharedPass = { pass: this.walker.pass, cost: undefined };
    this.#last = mine;
    const at = this.walker.now();
    return () => void (mine.cost ??= Math.max(0, this.walker.now() - at));
  }
}
