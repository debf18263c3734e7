/**
 * Skill roots: where a project keeps its skills (DESIGN.md, "Where things are found"). `pin --all`,
 * unpinned detection in `verify-pins`, `validate` and `prompt` without arguments, and the MCP
 * server's skills all read this one list. The defaults cover the folders agents use; a project
 * changes them with the lock's `skill_roots` field (written by `pin --skill-roots`). The lock is
 * the place because it is already what `verify-pins` reads (from the working tree, the index or a
 * commit alike), it is committed, and no skill may write it (docs/security.md, "Protected paths"):
 * a skill that could shrink the list could hide itself from the unpinned check. This module is
 * the list and its rules; project-skills.ts reads it from a project.
 */
import { EXCLUDED_DIRS, foldName } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { SkillctlLock } from './model.js';
import { unsafeSourcePath } from './paths.js';

/**
 * Where skills are looked for when the lock names no `skill_roots`, relative to the project root.
 * `.github/skills` is where GitHub Copilot (its cloud agent, its CLI, VS Code's agent mode) loads
 * a repository's skills from, beside `.claude/skills` and `.agents/skills`: left out, a skill
 * added there passed every check while Copilot loaded it.
 */
export const DEFAULT_SKILL_ROOTS: readonly string[] = ['manifests', 'skills', '.agents/skills', '.claude/skills', '.github/skills'];

/**
 * The default roots an agent host lists and loads every child of, wherever they are: Claude Code
 * also loads `packages/web/.claude/skills/` when it works in `packages/web/`, so these names are
 * searched for at any depth (nested-roots.ts), and a case-insensitive file system opens
 * `skill.md` there as `SKILL.md` (scan.ts).
 */
export const AGENT_SKILL_ROOTS: readonly string[] = ['.agents/skills', '.claude/skills', '.github/skills'];

const FOLDED_AGENT_ROOTS: readonly string[] = AGENT_SKILL_ROOTS.map((r) => r.split('/').map(foldName).join('/'));

/**
 * Whether `root` is an agent host's root: one of AGENT_SKILL_ROOTS, at the top or in a subfolder,
 * spelt in any way a macOS or Windows checkout opens as it (`packages/web/.Claude/skills`).
 */
export function isAgentRoot(root: string): boolean {
  const tail = root.split('/').slice(-2).map(foldName).join('/');
  return FOLDED_AGENT_ROOTS.includes(tail);
}

/** The most roots a lock may name: each is searched by every `verify-pins`. */
export const MAX_SKILL_ROOTS = 64;

/** The skill roots a lock sets, or the defaults. */
export function skillRootsOf(lock: Pick<SkillctlLock, 'skill_roots'> | undefined): readonly string[] {
  return lock?.skill_roots ?? DEFAULT_SKILL_ROOTS;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * What a lock records for `roots`: nothing when they are the defaults, so a lock that never
 * changed them stays readable by skillctl versions that predate the field.
 */
export function recordedSkillRoots(roots: readonly string[]): readonly string[] | undefined {
  return sameList(roots, DEFAULT_SKILL_ROOTS) ? undefined : roots;
}

/**
 * Why each root cannot be one, as findings at `pointer` of `file`: a root is a clean relative
 * POSIX path inside the project, not the project itself, not inside a directory no search enters
 * (.git, node_modules, .skillctl), and listed once.
 */
export function checkSkillRoots(roots: readonly string[], at: { readonly file?: string; readonly pointer?: string } = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const where = (i: number): { file?: string; pointer?: string } => ({
    ...(at.file !== undefined ? { file: at.file } : {}),
    ...(at.pointer !== undefined ? { pointer: `${at.pointer}/${i}` } : {}),
  });
  const hint = `skill roots are folders inside the project, such as ${DEFAULT_SKILL_ROOTS.join(', ')}`;
  if (roots.length === 0 || roots.length > MAX_SKILL_ROOTS) {
    out.push(diag('SKILL_ROOTS_INVALID', `a project has 1 to ${MAX_SKILL_ROOTS} skill roots, not ${roots.length}`, { ...where(0), hint }));
  }
  roots.forEach((root, i) => {
    const unsafe = unsafeSourcePath(root);
    const excluded = root.split('/').find((s) => EXCLUDED_DIRS.has(s));
    if (unsafe !== undefined) out.push(diag('SKILL_ROOTS_INVALID', `skill root ${JSON.stringify(root)}: ${unsafe}`, { ...where(i), hint }));
    else if (excluded !== undefined) out.push(diag('SKILL_ROOTS_INVALID', `skill root ${root} is inside ${excluded}/, which no search enters`, { ...where(i), hint }));
    else if (seen.has(root)) out.push(diag('SKILL_ROOTS_INVALID', `skill root ${root} is listed twice`, where(i)));
    seen.add(root);
  });
  return out;
}
