/**
 * What the user's own git would run or read by path from the repository around a run's working
 * directory (src/skills/lib/git-named-paths.ts): a run with a write grant protects these paths.
 * git is asked, not the files parsed, so includes, worktree configuration and the user's global
 * configuration are read as the user's git reads them; nothing git runs is started by a listing.
 * The git started is the one the run engine found on the PATH and judged (not inside a write
 * grant, where an earlier skill could have planted it): a lookup by name here would take
 * whatever is first on that PATH, relative entries included, when it starts.
 */
import { CONFIG_MAX, parseListing } from '../skills/lib/git-config.js';
import { gitNamedPaths } from '../skills/lib/git-named-paths.js';
import { baseEnv, runWith } from './git-run.js';

/**
 * The paths, or none when git is not installed, the directory is in no repository and no global
 * configuration names one, or git cannot read the configuration (the user's git, failing the same
 * way, would run none of it either).
 */
export async function repositoryNamedPaths(git: string, cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const base = baseEnv(env);
  try {
    const [where, listing] = await Promise.all([
      runWith(cwd, base, ['rev-parse', '--show-toplevel'], 64 * 1024, undefined, git),
      runWith(cwd, base, ['config', '--list', '--show-scope', '--show-origin', '--null'], CONFIG_MAX, undefined, git),
    ]);
    const entries = listing.code === 0 && !listing.stopped ? parseListing(listing.stdout) : undefined;
    if (entries === undefined) return [];
    const top = where.code === 0 ? where.stdout.toString('utf8').replace(/\n$/, '') : undefined;
    return gitNamedPaths(entries, { top: top !== undefined && top !== '' && !top.includes('\n') ? top : undefined, home: env.HOME });
  } catch {
    return [];
  }
}
