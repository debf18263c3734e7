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
import { DEFAULT_SKILL_ROOTS } from '../pins/skill-roots.js';
import { projectWrite, type EnclosingPolicy } from './project-writes.js';

export interface NestedRootFiles {
  /** The nested root's policy file, when it exists and no --policy names another. */
  readonly policy?: string;
  /** The nested root's lock, when it exists. */
  readonly lock?: string;
}

/** An enclosing project's root and the skill roots its lock names (relative, as `skill_roots` holds them). */
export interface EnclosingSkillRoots {
  readonly root: string;
  readonly skillRoots: readonly string[];
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

/**
 * The refusal of a nested root that lies inside a skill root of an enclosing project (`skills/`,
 * `.agents/skills/`, …), or undefined. A folder there is a skill's, written by whoever wrote the
 * skill (a `pull` from a registry or an MCP server, which takes any file of the skill, a pull
 * request): its `pins/skills.lock.json` made it a project root for every skillctl started in it
 * (an agent following the skill's own instructions), and its policy the one in force, however
 * little the enclosing project's policy grants. No project lives inside a skill's folder.
 * The skill roots of each enclosing project are the defaults and those its lock's `skill_roots`
 * names: agents load the default folders whatever the lock says, and pull writes into them.
 */
export function skillFolderRoot(root: string, files: NestedRootFiles, enclosing: readonly EnclosingSkillRoots[]): Diagnostic | undefined {
  const file = files.policy ?? files.lock;
  if (file === undefined) return undefined;
  for (const { root: outer, skillRoots } of enclosing) {
    const skills = [...DEFAULT_SKILL_ROOTS, ...skillRoots].map((r) => join(outer, r)).find((r) => root !== r && within(root, r));
    if (skills === undefined) continue;
    return diag('POLICY_ROOT_WRITABLE', `${root} lies in the skill root ${skills} of the project ${outer}: it is a skill's folder, whose author wrote ${file}, and a run started here would obey it`, {
      hint: `run from ${outer}, or move the project out of ${skills}`,
    });
  }
  return undefined;
}

/** Where a policy of one's own lies out of every skill's reach in the runs of `e`'s project. */
const keepHint = (e: EnclosingPolicy): string => `keep a policy of your own in ${join(e.root, '.skillctl')}/ (every run of ${e.root} holds it read-only; its relative paths name ${e.root})`;

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
