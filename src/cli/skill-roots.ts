/**
 * What `validate` and `prompt` search when given no path (DESIGN.md, "Where things are found"):
 * the folder the user is in when it is a skill folder; else the project's skill roots that exist;
 * else the working directory, as before skill roots existed. The roots are read through
 * core/pins/project-skills.ts directly, not the pins folder's index, so the validate chunk (which
 * the fast path loads) does not carry the lock's validators.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { searchProjectRoot } from '../core/fs/project.js';
import { readSkillRoots } from '../core/pins/project-skills.js';
import { DEFAULT_LOCK_PATH } from '../core/pins/model.js';
import { SKILL_FOLDER_MARKERS } from '../core/pins/scan.js';

export interface RootInputs {
  /** Paths relative to the working directory, as a user would have typed them. */
  readonly args: readonly string[];
  /** What was chosen and why, for stderr; undefined when it is the folder the user is in. */
  readonly note?: string;
  /** Why the lock's skill_roots could not be used (the defaults were). */
  readonly diagnostics: readonly Diagnostic[];
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The paths to search for skills when none was named, from the working directory `cwd`. */
export async function skillRootInputs(cwd: string): Promise<RootInputs> {
  for (const name of SKILL_FOLDER_MARKERS) if (await isFile(join(cwd, name))) return { args: ['.'], diagnostics: [] };
  const found = await searchProjectRoot(cwd);
  const root = found.root ?? cwd;
  const lockLabel = root === cwd ? DEFAULT_LOCK_PATH : join(root, DEFAULT_LOCK_PATH);
  const roots = await readSkillRoots(join(root, ...DEFAULT_LOCK_PATH.split('/')), lockLabel);
  const existing: string[] = [];
  for (const r of roots.roots) if (await isDir(join(root, ...r.split('/')))) existing.push(r);
  const whence = roots.from === 'lock' ? `skill_roots in ${lockLabel}` : 'the default skill roots';
  if (existing.length === 0) {
    return { args: ['.'], note: `no skill root exists (${roots.roots.join(', ')}; ${whence}): searching the working directory`, diagnostics: [...found.diagnostics, ...roots.diagnostics] };
  }
  const show = (r: string): string => {
    const rel = relative(cwd, join(root, ...r.split('/')));
    return rel === '' ? '.' : isAbsolute(rel) ? join(root, r) : rel;
  };
  return { args: existing.map(show), note: `searching ${existing.join(', ')} (${whence})`, diagnostics: [...found.diagnostics, ...roots.diagnostics] };
}
