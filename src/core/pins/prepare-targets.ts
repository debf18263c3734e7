/**
 * The pins of a run's targets, prepared against the origin records of pulled skills
 * (core/mcp-skills/origins.ts). A pull renames its folders into place and then writes the records,
 * holding the write lock for pulls; a pin that hashed a folder and read the records without it
 * could bind the files of one state of the project to the record of another (a folder just pulled,
 * its record not yet written: pinned as a local skill). So the targets are prepared once against
 * the records as read (the slow part: every folder validated and hashed, no lock held), and then,
 * holding the write lock for pulls, again for each folder whose record changed meanwhile, or for
 * every folder when a pull that died was put right under it (its folders moved back or in). What
 * is pinned is then a folder and its record as one pull left them.
 */
import { sameRecord, type Origins } from '../mcp-skills/index.js';
import type { Diagnostic } from '../diagnostics.js';
import { preparePin, type Prepared, type PrepareContext } from './prepare.js';
import type { PinTarget } from './targets.js';

/** One target's pin, or the findings that say why it has none. */
export interface PreparedTarget {
  readonly prepared?: Prepared;
  readonly diagnostics: readonly Diagnostic[];
}

/** Prepares every target against `ctx.origins`, reporting each one done. */
export async function prepareTargets(ctx: PrepareContext, targets: readonly PinTarget[], onProgress?: (done: number, total: number) => void): Promise<PreparedTarget[]> {
  const out: PreparedTarget[] = [];
  for (const [i, t] of targets.entries()) {
    out.push(await preparePin(ctx, t));
    onProgress?.(i + 1, targets.length);
  }
  return out;
}

/**
 * `done` (prepared against `read`) with each folder prepared again against `now` whose record
 * differs from the one `read` gave it, or every folder when `moved` (a pull was put right).
 */
export async function prepareAgain(ctx: PrepareContext & { readonly origins: Origins }, targets: readonly PinTarget[], done: readonly PreparedTarget[], read: Origins, moved: boolean): Promise<PreparedTarget[]> {
  const out: PreparedTarget[] = [];
  for (const [i, t] of targets.entries()) {
    const again = t.kind === 'bundle' && (moved || !sameRecord(read[t.source], ctx.origins[t.source]));
    out.push(again ? await preparePin(ctx, t) : (done[i] as PreparedTarget));
  }
  return out;
}

/** The pins prepared, in target order. */
export function preparedOf(targets: readonly PreparedTarget[]): Prepared[] {
  return targets.flatMap((t) => (t.prepared !== undefined ? [t.prepared] : []));
}
