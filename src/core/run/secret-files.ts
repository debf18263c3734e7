/**
 * The secret files of the command that starts a run (RunOptions.secretPaths) that a sandbox
 * must cover: those inside one of the run's grants, which the sandbox would otherwise show as
 * they are. Looked at before the sandbox is set up, as bwrapArgs itself reads nothing.
 */
import { lstat } from 'node:fs/promises';
import { within } from '../policy/paths.js';

/**
 * The regular files among `secrets` (real paths) that lie inside one of `grants`
 * (SandboxSpec.hideFiles). One that does not exist, or is no longer a file, is left out: a file
 * mounted over needs its mount point, which bubblewrap or a container engine would otherwise make
 * on the host, inside the grant.
 */
export async function secretFilesIn(secrets: readonly string[], grants: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of secrets) {
    if (!grants.some((g) => within(p, g))) continue;
    const st = await lstat(p).catch(() => undefined);
    if (st?.isFile() === true) out.push(p);
  }
  return out;
}
