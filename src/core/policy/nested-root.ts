/**
 * A project root inside another project. Its policy decides what runs started in it may do, and
 * its lock which bundle a skill id names; bubblewrap holds those names read-only only where it
 * is told of them (the project root, the home, the run's own paths), so a process skill of the
 * enclosing project, granted to write a subdirectory, can create `sub/skillctl.policy.yaml`
 * (granting everything) and `sub/pins/skills.lock.json` or `sub/.git`: a person who later runs
 * skillctl in `sub/` would obey them. A nested root's policy and lock are therefore used only
 * when no enclosing project's policy lets skills write where they lie.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { within } from '../fs/within.js';

export interface EnclosingPolicy {
  /** The enclosing project's root. */
  readonly root: string;
  /** Its policy file. */
  readonly source: string;
  /** Its fs.write paths, as written and as real paths. */
  readonly fsWrite: readonly string[];
}

export interface NestedRootFiles {
  /** The nested root's policy file, when it exists and no --policy names another. */
  readonly policy?: string;
  /** The nested root's lock, when it exists. */
  readonly lock?: string;
}

/** The refusal of a nested root whose policy or lock an enclosing project's skills may have written, or undefined. */
export function plantableRoot(files: NestedRootFiles, enclosing: readonly EnclosingPolicy[]): Diagnostic | undefined {
  for (const [what, file] of [
    ['policy', files.policy],
    ['lock', files.lock],
  ] as const) {
    if (file === undefined) continue;
    for (const e of enclosing) {
      const w = e.fsWrite.find((p) => within(file, p));
      if (w === undefined) continue;
      return diag(
        'POLICY_ROOT_WRITABLE',
        `${file} lies inside ${w}, which the policy of the enclosing project ${e.root} (${e.source}) lets skills write: a skill run there could have made this ${what}, and a run started here would obey it`,
        { hint: what === 'policy' ? `pass --policy ${file} if you wrote it, or grant fs.write in ${e.source} less than this folder` : `run from ${e.root}, or grant fs.write in ${e.source} less than this folder` },
      );
    }
  }
  return undefined;
}
