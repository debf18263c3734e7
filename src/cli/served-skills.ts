/**
 * `skillctl mcp --skills [DIR...]`: the skills the server offers are the SKILL.md folders under
 * the DIRs given, or else under the project's skill roots (the lock's `skill_roots`, else the
 * defaults), the same roots `pin --all`, `verify-pins`, `validate` and `prompt` read. A skill's
 * path is its folder's path below its root. The roots are fixed at start, each resolved then and
 * held to the directory it was (core/agent-skills/served-roots.ts); the folders under them are
 * read on every request (directory listings and digests kept by identity), so a skill added or
 * edited while the server runs is served as it is.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { servedCatalogue } from '../core/agent-skills/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { loadSkillRoots } from '../core/pins/index.js';
import type { SkillCatalogue } from '../mcp/skills.js';
import { startIdentityChecker } from './served-check-thread.js';

export type ProjectCatalogue = { readonly catalogue: SkillCatalogue; readonly roots: readonly string[]; readonly from: 'flag' | 'lock' | 'default' } | { readonly diagnostics: readonly Diagnostic[] };

function catalogueOf(roots: readonly { dir: string; label: string }[]): SkillCatalogue {
  // The clock decides when a file's times are old enough to trust (served-walk.ts); a worker
  // thread makes a share of each listing's file checks (served-check-thread.ts).
  return servedCatalogue(roots, Date.now, startIdentityChecker());
}

/** The catalogue of `dirs` (relative to `cwd`) when given, else of the project at `root`; a lock whose skill_roots cannot be used stops it. */
export async function projectSkillCatalogue(root: string, cwd: string, dirs: readonly string[] = []): Promise<ProjectCatalogue> {
  if (dirs.length > 0) {
    const roots = dirs.map((d) => {
      const dir = resolve(cwd, d);
      const rel = relative(cwd, dir);
      return { dir, label: rel === '' || rel.startsWith('..') || isAbsolute(rel) ? dir : rel };
    });
    return { catalogue: catalogueOf(roots), roots: roots.map((r) => r.label), from: 'flag' };
  }
  const roots = await loadSkillRoots(root);
  if (roots.diagnostics.length > 0) return { diagnostics: roots.diagnostics };
  return { catalogue: catalogueOf(roots.roots.map((r) => ({ dir: join(root, ...r.split('/')), label: r }))), roots: roots.roots, from: roots.from === 'lock' ? 'lock' : 'default' };
}
