/**
 * What the host's file system looks like where a sandbox is built from it: the system
 * directories every sandbox shows read-only (and how each appears: a merged-/usr host has /bin
 * as a link), the host's top-level entries for a grant of `/`, and the directory a program
 * outside them needs shown.
 */
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { within } from '../policy/paths.js';

/** How a top-level system directory appears on this host. */
export type SystemEntry = { readonly path: string; readonly symlink?: string };

/** What every sandbox shows read-only from the host. */
export const SYSTEM_DIRS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

async function layoutOf(paths: readonly string[], dirsOnly: boolean): Promise<SystemEntry[]> {
  const out: SystemEntry[] = [];
  for (const path of paths) {
    try {
      const st = await lstat(path);
      if (st.isSymbolicLink()) out.push({ path, symlink: await readlink(path) });
      else if (st.isDirectory() || !dirsOnly) out.push({ path });
    } catch {
      // absent on this host
    }
  }
  return out;
}

/** The host's layout of the system directories (merged-/usr systems have /bin -> usr/bin). */
export function systemLayout(): Promise<SystemEntry[]> {
  return layoutOf(SYSTEM_DIRS, true);
}

/** The host's top-level entries, for a grant of `/` (SandboxSpec.rootEntries). */
export async function rootLayout(): Promise<SystemEntry[]> {
  const names = await readdir('/').catch(() => [] as string[]);
  return layoutOf(names.sort().map((n) => `/${n}`), false);
}

/** Is this real path inside a system directory (always mounted read-only)? */
export function inSystemDir(real: string): boolean {
  return SYSTEM_DIRS.some((d) => within(real, d));
}

/**
 * The directory to mount read-only for a program that bubblewrap would not otherwise show: its own
 * directory when the file it resolves to lies outside the system directories.
 */
export async function programDirs(file: string): Promise<string[]> {
  const real = await realpath(file).catch(() => file);
  return inSystemDir(real) ? [] : [dirname(real)];
}
