/**
 * A project's skills: its skill roots, read once from its lock (skill-roots.ts has the list and
 * its rules), and the skill folders under them. What `validate` and `prompt` without arguments
 * search, and what an MCP server offers as the project's skills.
 */
import { join } from 'node:path';
import { asyncDirOps, type DirOps } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { describeRefusal, readBounded } from '../fs/read-bounded.js';
import { MANIFEST_MAX_DEPTH, parseJsonStrict } from '../manifest/index.js';
import { DEFAULT_LOCK_PATH, LOCK_MAX_BYTES } from './model.js';
import { findSkillFolders } from './scan.js';
import { checkSkillRoots, DEFAULT_SKILL_ROOTS } from './skill-roots.js';

export interface SkillRoots {
  /** The roots, relative to the project root, in the order they are listed. */
  readonly roots: readonly string[];
  /** `lock`: the lock's `skill_roots`; `default`: no lock, or a lock that sets none. */
  readonly from: 'lock' | 'default';
  /** Why the lock's roots could not be used; the roots are then the defaults. */
  readonly diagnostics: readonly Diagnostic[];
}

const DEFAULTS: SkillRoots = { roots: DEFAULT_SKILL_ROOTS, from: 'default', diagnostics: [] };

/**
 * The skill roots the lock at `lockPath` sets (`label` names it in findings). No lock: the
 * defaults. A lock that cannot be read, is not strict JSON, or sets roots that break their rules:
 * the defaults, with the finding, so a command that only searches (validate, prompt) still runs
 * and says why. Only `skill_roots` is read here; the rest of the lock is verify-pins' to check,
 * and its validators stay out of the commands that merely search. A provenact lock keeps its
 * bundles where its own format says; its project's skill roots are the defaults.
 */
export async function readSkillRoots(lockPath: string, label: string = lockPath): Promise<SkillRoots> {
  // Bounded in size and kind as every lock read is (read-bounded.ts): a FIFO there never blocks.
  const read = await readBounded(lockPath, { maxBytes: LOCK_MAX_BYTES });
  if (!read.ok && read.reason === 'missing') return DEFAULTS;
  if (!read.ok) return { ...DEFAULTS, diagnostics: [diag('LOCK_UNREADABLE', describeRefusal(read, `the lock file ${label}`), { file: label })] };
  const text = read.bytes.toString('utf8');
  const parsed = !text.includes('\ufffd') ? parseJsonStrict(text, MANIFEST_MAX_DEPTH) : undefined;
  const data = parsed?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ...DEFAULTS, diagnostics: [diag('LOCK_UNREADABLE', `the lock file ${label} is not a strict JSON object`, { file: label, hint: 'the lock file must be JSON as skillctl pin writes it' })] };
  }
  const roots = (data as Record<string, unknown>).skill_roots;
  if (roots === undefined || !('lock_version' in data)) return DEFAULTS;
  const at = { file: label, pointer: '/skill_roots' };
  if (!Array.isArray(roots) || !roots.every((r): r is string => typeof r === 'string')) {
    return { ...DEFAULTS, diagnostics: [diag('SKILL_ROOTS_INVALID', 'skill_roots is not a list of folder paths', at)] };
  }
  const found = checkSkillRoots(roots, at);
  return found.length > 0 ? { ...DEFAULTS, diagnostics: found } : { roots, from: 'lock', diagnostics: [] };
}

/** The skill roots of the project at `root`: those its lock (pins/skills.lock.json) sets, else the defaults. */
export function loadSkillRoots(root: string): Promise<SkillRoots> {
  return readSkillRoots(join(root, ...DEFAULT_LOCK_PATH.split('/')), DEFAULT_LOCK_PATH);
}

export interface ProjectSkills extends SkillRoots {
  /**
   * Skill folders (holding skill.yaml, skill.json or SKILL.md) under the roots, relative to the
   * project root, sorted; a root that does not exist holds none.
   */
  readonly folders: readonly string[];
}

/** The skill roots of the project at `root` and the skill folders under them. */
export async function findProjectSkills(root: string, ops: Pick<DirOps, 'readdir' | 'lstat' | 'realpath'> = asyncDirOps): Promise<ProjectSkills> {
  const roots = await loadSkillRoots(root);
  return { ...roots, folders: await findSkillFolders(root, roots.roots, ops) };
}
