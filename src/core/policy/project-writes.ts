/**
 * What the policies a project keeps let skills write: a file or folder that a skill of a run under
 * one of them could rewrite, unless every run of that project holds it (heldByProject). The
 * checks of what a later command trusts (a nested root's policy and lock, a `--policy` file, an
 * `--audit` log, the folders `mcp` serves) judge by these.
 */
import { within } from '../fs/within.js';
import { heldByProject } from './protected.js';

export interface EnclosingPolicy {
  /** The project's root. */
  readonly root: string;
  /** One policy file it keeps. */
  readonly source: string;
  /** Its fs.write paths, as written and as real paths. */
  readonly fsWrite: readonly string[];
}

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
