/**
 * A project root inside another project. Its policy decides what runs started in it may do, and
 * its lock which bundle a skill id names; bubblewrap holds those names read-only only where it
 * is told of them (the project root, the home, the run's own paths), so a process skill of the
 * enclosing project, granted to write a subdirectory, can create `sub/skillctl.policy.yaml`
 * (granting everything) and `sub/pins/skills.lock.json` or `sub/.git`: a person who later runs
 * skillctl in `sub/` would obey them. A nested root's policy and lock are therefore used only
 * when no enclosing project's policy lets skills write where they lie.
 *
 * A policy named with `--policy` is judged the same way: bubblewrap holds it only in the runs
 * that use it, so a skill run under the project's own policy could rewrite `conf/ci.policy.yaml`
 * and the next `--policy conf/ci.policy.yaml` run would obey the rewrite.
 */
import { join } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { within } from '../fs/within.js';
import { heldByProject } from './protected.js';

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
        { hint: what === 'policy' ? `${keepHint(e)} and pass it with --policy, or grant fs.write in ${e.source} less than this folder` : `run from ${e.root}, or grant fs.write in ${e.source} less than this folder` },
      );
    }
  }
  return undefined;
}

/** Where a policy of one's own lies out of every skill's reach in the runs of `e`'s project. */
const keepHint = (e: EnclosingPolicy): string => `keep a policy of your own in ${join(e.root, '.skillctl')}/ (every run of ${e.root} holds it read-only; its relative paths name ${e.root})`;

/** A write grant over a file, and the policy of the project that grants it. */
export interface ProjectWrite {
  readonly grant: string;
  readonly policy: EnclosingPolicy;
}

/**
 * The first write grant of `policies` (the projects that hold a file, and the run's own) over the
 * file (`path` as named, `real` its real path) outside the paths every run of that project
 * protects (heldByProject: its own policy, `.skillctl/`, `pins/`): a skill run under that policy
 * could rewrite the file. Undefined when none.
 */
export function projectWrite(path: string, real: string, policies: readonly EnclosingPolicy[]): ProjectWrite | undefined {
  for (const policy of policies) {
    // The name as given and the file it leads to, each: a link kept in .skillctl/ to a file a
    // skill may write is no better than that file, nor a link a skill may replace to a held one.
    const exposed = (name: string): string | undefined => (heldByProject(policy.root, name) ? undefined : policy.fsWrite.find((p) => within(name, p)));
    const grant = exposed(path) ?? exposed(real);
    if (grant !== undefined) return { grant, policy };
  }
  return undefined;
}

/**
 * The first write grant of `policies` that reaches into the folder `dir` (`real` its real path):
 * one that holds it, or lies inside it, outside what the grant's project holds and outside
 * `held` (folders the command knows every run protects). Undefined when none.
 */
export function projectWriteInto(dir: string, real: string, policies: readonly EnclosingPolicy[], held: readonly string[] = []): ProjectWrite | undefined {
  for (const policy of policies) {
    const isHeld = (p: string): boolean => heldByProject(policy.root, p) || held.some((h) => within(p, h));
    for (const name of [dir, real]) {
      const grant = policy.fsWrite.find((g) => (within(name, g) && !isHeld(name)) || (within(g, name) && !isHeld(g)));
      if (grant !== undefined) return { grant, policy };
    }
  }
  return undefined;
}

/** The refusal of a `--policy` file that a skill of a run under another policy may have rewritten (projectWrite), or undefined. */
export function writablePolicyFile(path: string, real: string, policies: readonly EnclosingPolicy[]): Diagnostic | undefined {
  // Not the policy itself: the runs under it hold it, so its own grant cannot have rewritten it.
  const w = projectWrite(path, real, policies.filter((p) => p.source !== path && p.source !== real));
  if (w === undefined) return undefined;
  const e = w.policy;
  return diag(
    'POLICY_FILE_WRITABLE',
    `${path} lies inside ${w.grant}, which the policy of the project ${e.root} (${e.source}) lets skills write, and no run of that project holds it: a skill run there could have rewritten this policy`,
    { hint: `${keepHint(e)}, or outside every folder a policy lets skills write, or grant fs.write in ${e.source} less than this folder` },
  );
}
