/**
 * `verify-pins --remote`: each pin that records where it was pulled from is checked against its
 * origin as it is now (the pulled-from kinds each provide a `remoteDrift`). A lock's origins
 * name programs to start (`--mcp` servers): they are started only with --remote, which a user
 * passes for a lock they reviewed; without it verify-pins never leaves the working tree.
 */
import type { Diagnostic } from '../../../core/diagnostics.js';
import { remoteDrift } from '../../../core/mcp-skills/index.js';
import type { SkillctlLock } from '../../../core/pins/index.js';

export async function remoteFindings(lock: SkillctlLock, opts: { readonly cwd: string; readonly timeoutMs: number }): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  for (const pin of lock.skills) {
    const mcp = pin.origin?.mcp;
    if (mcp !== undefined) for (const d of await remoteDrift(mcp, { cwd: opts.cwd, timeoutMs: opts.timeoutMs, file: pin.source })) found.push(d);
  }
  return found;
}
