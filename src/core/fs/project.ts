import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Files whose presence marks a directory as a skillctl project root. */
export const PROJECT_MARKERS = ['pins/skills.lock.json', 'skillctl.policy.yaml'] as const;

/**
 * The project root: the nearest ancestor of `cwd` (itself included) holding
 * pins/skills.lock.json or skillctl.policy.yaml; undefined when there is none.
 */
export async function findProjectRoot(cwd: string): Promise<string | undefined> {
  let dir = cwd;
  for (;;) {
    for (const marker of PROJECT_MARKERS) {
      try {
        if ((await stat(join(dir, marker))).isFile()) return dir;
      } catch {
        // not here
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
