/**
 * How a run's protected paths inside its write grants are held, for bubblewrap and the container
 * engines alike: each mounted read-only on itself, and the directories between the grant and it
 * pinned as mount points, so that none can be renamed aside and refilled.
 */
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { within } from '../policy/paths.js';
import { isSecretDir, protectedWhole, secretReason } from '../policy/protected.js';

/** The directories between the write grants holding `p` and `p` itself, deepest first (none when no grant holds it). */
function dirsAbove(p: string, write: readonly string[]): string[] {
  const inWrite = write.filter((w) => within(p, w));
  const out: string[] = [];
  for (let dir = dirname(p); inWrite.some((w) => within(dir, w) && dir !== w); dir = dirname(dir)) out.push(dir);
  return out;
}

/** A path mounted on itself over a write grant: read-only, or as it is (writable) only to pin it. */
export interface ProtectMount {
  readonly path: string;
  readonly writable: boolean;
}

/**
 * How the run's protected paths inside a write grant are mounted over it, for bubblewrap and the
 * container engines alike. Each is mounted read-only. Each directory between the write grant and
 * one is mounted on itself, as it is (writable): a mount point cannot be renamed, so the path
 * cannot be moved aside and refilled. A file on the way (`notDirs`: a `.git` file naming the git
 * directory elsewhere) has nothing below it, and no engine mounts a path through it: it is
 * mounted read-only instead, which pins it too, so it can be neither rewritten to name another
 * git directory, nor renamed, removed or replaced.
 */
export function protectMounts(protect: readonly string[], write: readonly string[], notDirs: readonly string[] = []): ProtectMount[] {
  const out = new Map<string, boolean>();
  const files = new Set(notDirs);
  for (const f of files) if (write.some((w) => within(f, w) && f !== w)) out.set(f, false);
  for (const p of protect) {
    if (!write.some((w) => within(p, w))) continue;
    const above = dirsAbove(p, write);
    const file = above.findIndex((d) => files.has(d));
    // A directory that is protected itself is mounted read-only, which pins it as well.
    for (const dir of file === -1 ? above : above.slice(file + 1)) if (!protect.includes(dir) && !out.has(dir)) out.set(dir, true);
    if (file === -1) out.set(p, false);
  }
  return [...out].map(([path, writable]) => ({ path, writable }));
}

/**
 * The paths between a write grant and a protected path that exist and are not directories
 * (SandboxSpec.notDirs): looked at before the sandbox is set up, as bwrapArgs itself reads nothing.
 */
export async function notDirsOnTheWay(protect: readonly string[], write: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of new Set(protect.flatMap((p) => dirsAbove(p, write)))) {
    const st = await lstat(dir).catch(() => undefined);
    if (st !== undefined && !st.isDirectory()) out.push(dir);
  }
  return out;
}

/**
 * The run's protected paths that are directories of secret keys (SECRET_DIRS), exist, and lie
 * inside one of `grants` (SandboxSpec.hide): looked at before the sandbox is set up. One that does
 * not exist is not made (a tmpfs needs its mount point, which would be made on the host).
 */
export async function secretDirsIn(protect: readonly string[], grants: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of protect) {
    if (!isSecretDir(p) || !grants.some((g) => within(p, g))) continue;
    const st = await lstat(p).catch(() => undefined);
    if (st?.isDirectory() === true) out.push(p);
  }
  return out;
}

/**
 * The grants as a sandbox shows them. The mounts above hold the protected paths that lie inside a
 * write grant; a write grant that lies inside one (`.claude/commands`, `.git/hooks`, a nested
 * `sub/.npmrc`, the policy's own directory) was mounted after it, deeper, and writable: a python
 * skill granted `.claude/commands` wrote a command Claude Code loads, where a built-in is refused
 * every write (POLICY_PATH_PROTECTED). Such a grant is shown read-only. A grant inside a directory
 * of secret keys (`.skillctl/keys/alice.key`), which a built-in may not even read
 * (POLICY_PATH_SECRET), is not shown at all: mounted after the cover over that directory, it was
 * on top of it.
 */
export function shownGrants(read: readonly string[], write: readonly string[], protect: readonly string[]): { readonly read: string[]; readonly write: string[] } {
  const shown = (g: string): boolean => secretReason(g) === undefined;
  const held = write.filter((w) => protectedWhole(w, protect));
  return { read: [...new Set([...read, ...held])].filter(shown), write: write.filter((w) => !held.includes(w)).filter(shown) };
}
