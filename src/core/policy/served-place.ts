/**
 * Where a folder `skillctl mcp` serves lies: a registry named with `--registry` (which tools the
 * server offers, and which writes wait for the user's approval) or a folder of Agent Skills named
 * with `--skills DIR` (whose SKILL.md frontmatter, `allowed-tools` included, the agent host
 * obeys). The server's own runs hold them; a run started elsewhere under a policy that lets its
 * skills write there does not know of them, and what its skill writes is the agent's next tool
 * or skill.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ProjectWrite } from './project-writes.js';

/** SERVED_FOLDER_WRITABLE (a warning) for the folder `dir` (`what` it is) that a skill of a project may write (`write`), or nothing. */
export function exposedServedFolder(dir: string, what: string, write: ProjectWrite | undefined): Diagnostic[] {
  if (write === undefined) return [];
  const { grant, policy } = write;
  return [
    diag('SERVED_FOLDER_WRITABLE', `${what} ${dir} and ${grant}, which the policy of the project ${policy.root} (${policy.source}) lets skills write, overlap: a skill run there could change what this server offers its agent`, {
      file: dir,
      hint: `keep it in ${policy.root}/.skillctl/ (a registry: .skillctl/registry, the project's own) or among the project's skill roots, which every run of ${policy.root} holds, or grant fs.write in ${policy.source} less`,
    }),
  ];
}
