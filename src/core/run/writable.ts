/**
 * What a skill could leave where a later run looks. The policy's `fs.write` paths are where any
 * skill run under it may write, whatever the entrypoint at hand was granted: a later run, or
 * skillctl itself, must not find there what it then obeys.
 *
 * - **Programs by name.** The run's PATH is the policy's `path`. A directory of it that a skill
 *   may write is one where it plants `python3`, `git` or `bwrap`: the next run's interpreter, the
 *   command an `exec` grant names, and bubblewrap and `setpriv` themselves, which skillctl looks up
 *   on that PATH and starts outside every sandbox (as it starts `python3 --version`). Such a
 *   directory is left out of the run's PATH (RUN_PATH_WRITABLE). A directory kept may still hold
 *   a link into a write grant, and an exec rule may name a program inside one by its absolute
 *   path: every program skillctl looks up for a run is refused when its real path lies inside a
 *   write grant (find-command.ts; RUN_PROGRAM_WRITABLE here, POLICY_EXEC_WRITABLE for exec).
 * - **The private copy.** A bundle directory is verified and run from a copy in the scratch
 *   directory (stage.ts), an archive unpacked there: a skill that may write there, running
 *   meanwhile, edits another run's copy after it was verified, and that run executes the edit. No
 *   copy is made there (RUN_SCRATCH_WRITABLE).
 */
import { dirname, isAbsolute, posix } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { CommandLookup } from '../fs/find-command.js';
import { WRITABLE_PROGRAM_HINT } from '../policy/grant-hint.js';
import { resolveReal, within } from '../policy/paths.js';

/** The real paths of the policy's fs.write entries; an entry that cannot be resolved counts as itself. */
export function writableReal(fsWrite: readonly string[]): Promise<string[]> {
  return Promise.all(fsWrite.map((w) => resolveReal(w).catch(() => w)));
}

/**
 * Whether a program could be planted in `dir` (a real path) by writing inside `writable`: the
 * directory lies in a write grant, or a grant names an entry of it (a file not there yet).
 */
function plantable(dir: string, writable: readonly string[]): boolean {
  return writable.some((w) => within(dir, w) || dirname(w) === dir);
}

/** The policy's PATH without the directories a skill may write in (or plant an entry of), and a warning naming them. */
export async function pathOutsideWrites(runPath: string, writable: readonly string[]): Promise<{ readonly path: string; readonly diagnostics: Diagnostic[] }> {
  if (writable.length === 0) return { path: runPath, diagnostics: [] };
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const entry of runPath.split(':')) {
    // A relative entry names no directory here: skillctl's own lookups ignore it (find-command.ts).
    const real = isAbsolute(entry) ? await resolveReal(posix.normalize(entry)).catch(() => entry) : undefined;
    if (real !== undefined && plantable(real, writable)) dropped.push(entry);
    else kept.push(entry);
  }
  if (dropped.length === 0) return { path: runPath, diagnostics: [] };
  const diagnostics = [
    diag('RUN_PATH_WRITABLE', `the policy's path names ${dropped.join(', ')}, where fs.write lets skills write: a program planted there would be the next run's (and bubblewrap itself is looked up on this PATH); left out of this run's PATH`, {
      hint: "take the directory out of the policy's path, or out of its fs.write",
    }),
  ];
  return { path: kept.join(':'), diagnostics };
}

/** Why no bundle may be copied or unpacked in `scratchDir` for a run under these write grants, or undefined. */
export async function scratchWritable(scratchDir: string, writable: readonly string[]): Promise<Diagnostic | undefined> {
  if (writable.length === 0) return undefined;
  const real = await resolveReal(scratchDir).catch(() => scratchDir);
  const grant = writable.find((w) => within(real, w));
  if (grant === undefined) return undefined;
  return diag('RUN_SCRATCH_WRITABLE', `bundles are copied for their runs into ${real}, which fs.write ${grant} lets skills write: a skill running meanwhile could edit a copy after it was verified; nothing is copied there`, {
    hint: 'set TMPDIR to a directory outside every fs.write path of the policy',
  });
}

/**
 * The refusal of a program skillctl itself starts for a run (`name`: the interpreter, bwrap,
 * setpriv, prlimit, a container engine) that the lookup found inside a write grant, or undefined.
 * Passing over it would be no safer than a missing program for the optional ones, but a planted
 * program is a finding the user must see, and the run does not start around it.
 */
export function programWritable(name: string, found: CommandLookup): Diagnostic | undefined {
  if (found.ok || found.writable === undefined) return undefined;
  return diag('RUN_PROGRAM_WRITABLE', `${name} ${found.reason}: skillctl would start it for this run, some of it outside every sandbox; the run is refused`, { hint: WRITABLE_PROGRAM_HINT });
}
