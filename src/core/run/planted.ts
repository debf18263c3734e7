/**
 * What a process skill may have planted. Under bubblewrap the run's protected paths that exist
 * are mounted read-only, but one that does not exist yet (a project without a policy file, a
 * repository without .git/hooks) cannot be: a process granted the project could create it, and
 * the next run would obey a policy the skill wrote. So the run notes which of them are absent
 * before the process starts, and after it ends removes any it finds: the run is then denied
 * (POLICY_PATH_PROTECTED) and its output discarded. What is noted is the first missing path on
 * the way to each: in a project that is not yet a repository, `.git/config` is absent and so is
 * `.git`, which a process could plant as a file (`gitdir: elsewhere`) where no `.git/config`
 * would ever show.
 */
import { lstat, readlink, rm, symlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { entryExists as exists, within } from '../fs/index.js';
import { diag } from '../diagnostics.js';
import { failed, type Attempt } from './attempt.js';
import { AFTER_MAX_DIRS } from './nested-names.js';

/** How often, 20 ms apart, a write lock found at a protected path is looked at again before it counts as planted. */
const LOCK_LOOKS = 50;

/**
 * Whether nothing is at `p` but, for a write lock (`.lck`: the audit log's, protected.ts), one that
 * goes or is replaced within a second: another run's append holds it for a few milliseconds, and
 * removed as planted, its writer and the next would both append (a forked chain). A lock the
 * skill planted (a directory, a link, a file that stays) is not that.
 */
async function vacant(p: string): Promise<boolean> {
  const first = await lstat(p).catch(() => undefined);
  if (first === undefined) return true;
  if (!p.endsWith('.lck') || !first.isFile()) return false;
  for (let i = 0; i < LOCK_LOOKS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = await lstat(p).catch(() => undefined);
    if (now === undefined || now.ino !== first.ino) return true;
  }
  return false;
}

/** For each protected path that does not exist now, the first of its missing ancestors (or itself). */
export async function absentPaths(paths: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const p of paths) {
    if (!(await vacant(p))) continue;
    let first = p;
    while (dirname(first) !== first && !(await exists(dirname(first)))) first = dirname(first);
    out.add(first);
  }
  return [...out];
}

/**
 * The links on the way to each protected path (`paths`, as named, before links are resolved), the
 * path itself included, that lie in a write grant (`write`, real paths), with where each leads.
 * A mount is made where a link leads, never on the link: a project's `.npmrc` or `.claude` kept
 * as a link to a shared file or folder, or a home's `.bashrc` a dotfiles manager linked, is held
 * read-only at its target, while a process could remove the link and put a file or folder of its
 * own in its place. So each is looked at again once the program ended (withoutPlanting).
 */
export async function linksOnTheWay(paths: readonly string[], write: readonly string[]): Promise<Map<string, HeldLink>> {
  const out = new Map<string, HeldLink>();
  const seen = new Set<string>();
  for (const p of paths) {
    for (let q = p; !seen.has(q) && write.some((w) => within(q, w) && q !== w); q = dirname(q)) {
      seen.add(q);
      const st = await lstat(q).catch(() => undefined);
      const parent = st?.isSymbolicLink() === true ? await lstat(dirname(q)).catch(() => undefined) : undefined;
      if (parent !== undefined) out.set(q, { target: await readlink(q), parent: { dev: parent.dev, ino: parent.ino } });
    }
  }
  return out;
}

/** A link linksOnTheWay noted: where it leads, and the directory that held it. */
export interface HeldLink {
  readonly target: string;
  readonly parent: { readonly dev: number; readonly ino: number };
}

/**
 * Whether `link` is still the link it was; if not, what is there is removed and the link put back.
 * Only in the directory that held it: one renamed aside and replaced (by a link to anywhere) since
 * is not written through, and the link then counts as removed.
 */
async function linkKept(link: string, held: HeldLink): Promise<boolean> {
  if ((await readlink(link).catch(() => undefined)) === held.target) return true;
  const parent = await lstat(dirname(link)).catch(() => undefined);
  if (parent?.dev !== held.parent.dev || parent.ino !== held.parent.ino) return false;
  await rm(link, { recursive: true, force: true });
  await symlink(held.target, link).catch(() => undefined);
  return false;
}

/** What a program planted below its write grants (nested-names.ts plantedBelow), asked once it ended. */
export type PlantedBelow = () => { readonly paths: readonly string[]; readonly whole: boolean };

/**
 * Runs `execute`; anything created at a path of `absent` meanwhile, or at a protected path below
 * the write grants that was not there before (`below`), is removed, a link of `links` (from
 * linksOnTheWay) that was removed or replaced is put back where it can be, and the run denied.
 */
export async function withoutPlanting(absent: readonly string[], execute: () => Promise<Attempt>, below?: PlantedBelow, links: ReadonlyMap<string, HeldLink> = new Map()): Promise<Attempt> {
  const attempt = await execute();
  const planted: string[] = [];
  const relinked: string[] = [];
  for (const [link, held] of links) if (!(await linkKept(link, held))) relinked.push(link);
  const after = below?.();
  for (const p of [...absent, ...(after?.paths ?? [])]) {
    if (await vacant(p)) continue;
    planted.push(p);
    await rm(p, { recursive: true, force: true });
  }
  if (after?.whole === false) {
    return {
      ...attempt,
      outcome: failed('denied', [
        diag('RUN_GRANT_UNWALKED', `the program left more than ${AFTER_MAX_DIRS.toLocaleString('en-US')} directories below its write grants: what it planted among them (a .claude/skills folder, an .npmrc) could not be looked for; its output is discarded${planted.length > 0 ? `, and ${planted.join(', ')} removed` : ''}`, {
          hint: 'remove what the skill left in its grant; later runs are refused until the grant can be looked through',
        }),
      ]),
    };
  }
  if (planted.length === 0 && relinked.length === 0) return attempt;
  const count = (n: number): string => (n === 1 ? 'a protected path' : `${n} protected paths`);
  return {
    ...attempt,
    outcome: failed('denied', [
      ...(planted.length > 0 ? [diag('POLICY_PATH_PROTECTED', `the skill created ${count(planted.length)} (${planted.join(', ')}); removed, and its output discarded`)] : []),
      ...(relinked.length > 0 ? [diag('POLICY_PATH_PROTECTED', `the skill removed or replaced the link at ${count(relinked.length)} (${relinked.join(', ')}); put back, and its output discarded`)] : []),
    ]),
  };
}
