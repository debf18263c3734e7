/**
 * `verify-pins --remote`: each pin that records where it was pulled from is checked against its
 * origin as it is now (each scheme's core `remoteDrift`): an OCI tag against the pinned manifest
 * digest, an MCP server's skill against the pinned resource set. A lock's MCP origins name
 * programs to start: they are started only with --remote, which a user passes for a lock they
 * reviewed; without it verify-pins never leaves the working tree.
 */
import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { remoteDrift as mcpDrift } from '../../../core/mcp-skills/index.js';
import { Deadline, remoteDrift as ociDrift } from '../../../core/oci/index.js';
import type { SkillctlLock } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { transportOptions } from '../../oci-env.js';

/** How long each request to an MCP server may take. */
const MCP_TIMEOUT_MS = 30_000;

/**
 * The remote findings of `lock`. `timeoutSeconds` (--timeout) is one deadline over them all,
 * counted from here: each request is otherwise bounded (60 s without progress for a registry, 30
 * s for an MCP server), but a registry that trickles, or a lock of many slow servers, is not.
 * Once it passes, every origin not yet answered is reported with its scheme's code.
 */
export async function remoteFindings(ctx: Context, lock: SkillctlLock, lockFile: string, timeoutSeconds?: number): Promise<Diagnostic[]> {
  const deadline = timeoutSeconds !== undefined ? new Deadline(timeoutSeconds) : undefined;
  // Started now rather than at the first request: the remote part is what the bound is for.
  deadline?.signal();
  const bound = deadline !== undefined ? { deadline } : {};
  const found: Diagnostic[] = [];
  // ociDrift names each pin by its index in the lock, so it takes them all (and skips the others).
  if (lock.skills.some((pin) => pin.origin?.oci !== undefined)) for (const d of await ociDrift(lock.skills, { ...(await transportOptions(ctx.io, {})), ...bound }, lockFile)) found.push(d);
  for (const pin of lock.skills) {
    const mcp = pin.origin?.mcp;
    if (mcp !== undefined) for (const d of await mcpDrift(mcp, { cwd: ctx.io.cwd, timeoutMs: MCP_TIMEOUT_MS, file: pin.source, ...bound })) found.push(d);
  }
  return sortDiagnostics(found);
}
