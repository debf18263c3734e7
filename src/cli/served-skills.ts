/**
 * `skillctl mcp --skills`: the skills the server offers are the SKILL.md folders under the
 * project's skill roots (the lock's `skill_roots`, else the defaults), the same list `pin --all`,
 * `verify-pins`, `validate` and `prompt` read. The roots are read once, at start; the folders
 * under them on every request, so a skill added or edited while the server runs is seen as it is.
 */
import { basename, join } from 'node:path';
import { readServedSkills, type ServedSkills } from '../core/agent-skills/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { findSkillFolders, loadSkillRoots, type SkillRoots } from '../core/pins/index.js';
import type { SkillCatalogue } from '../mcp/skills.js';

export type ProjectCatalogue = { readonly catalogue: SkillCatalogue; readonly roots: SkillRoots } | { readonly diagnostics: readonly Diagnostic[] };

/** The catalogue of the project at `root`; a lock whose skill_roots cannot be used stops it. */
export async function projectSkillCatalogue(root: string): Promise<ProjectCatalogue> {
  const roots = await loadSkillRoots(root);
  if (roots.diagnostics.length > 0) return { diagnostics: roots.diagnostics };
  const read = async (keep: (folder: string) => boolean): Promise<ServedSkills> => {
    const folders = (await findSkillFolders(root, roots.roots)).filter(keep);
    return readServedSkills(folders.map((f) => ({ dir: join(root, ...f.split('/')), label: f })));
  };
  return {
    roots,
    catalogue: {
      list: () => read(() => true),
      // A skill's name is its folder's name (checked when it is read): only those folders are read.
      get: async (name) => (await read((f) => basename(f) === name)).skills[0],
    },
  };
}
