import { lstat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { SkillctlError } from '../errors.js';

/** The first part of `dir` below `root` that is a symbolic link, if any (a missing part is made as a folder). */
export async function linkBelow(root: string, dir: string): Promise<string | undefined> {
  const rel = relative(root, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  let at = root;
  for (const part of rel.split(sep)) {
    at = join(at, part);
    const st = await lstat(at).catch(() => undefined);
    if (st === undefined) return undefined;
    if (st.isSymbolicLink()) return at;
  }
  return undefined;
}

/**
 * A pull's default folder is the project's (`.agents/skills`, `skills`): a repository may hold it,
 * or a folder above it, as a link to a folder of the user's (git checks links out as links), where
 * a pull would write outside the project, and a refresh (`pull --force`, the replacement of a
 * pulled skill) would remove `<that folder>/<name>` whole. Refused (OUTPUT_UNWRITABLE) when a part
 * below the project root is a link; `--out` names any folder, links included, as the user means it.
 */
export async function refuseLinkedDefault(root: string, dir: string): Promise<void> {
  const linked = await linkBelow(root, dir);
  if (linked !== undefined) {
    throw new SkillctlError('OUTPUT_UNWRITABLE', `${linked} is a link: pull writes its default folder ${dir} only inside the project`, { hint: 'remove the link, or pass --out to name the folder to write' });
  }
}
