/**
 * `verify-pins --remote`: each pin that records where it was pulled from is checked against its
 * origin as it is now (each scheme's core `remoteDrift`): an OCI tag against the pinned manifest
 * digest, an MCP server's skill against the pinned resource set. A lock's MCP origins name
 * programs to start: they are started only with --remote, which a user passes for a lock they
 * reviewed; without it verify-pins never leaves the working tree.
 */
import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { remoteDrift as mcpDrift } from '../../../core/mcp-skills/index.js';
import { remoteDrift as ociDrift } from '../../../core/oci/index.js';
import type { SkillctlLock } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { transportOptions } from '../../oci-env.js';

/** How long each request to an MCP server may take. */
const MCP_TIMEOUT_MS = 30_000;

export async function remoteFindings(ctx: Context, lock: SkillctlLock, lockFile: string): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  // ociDrift names each pin by its index in the lock, so it takes them all (and skips the others).
  if (lock.skills.some((pin) => pin.origin?.oci !== undefined)) for (const d of await ociDrift(lock.skills, await transportOptions(ctx.io, {}), lockFile)) found.push(d);
  for (const pin of lock.skills) {
    const mcp = pin.origin?.mcp;
    if (mcp !== undefined) for (const d of await mcpDrift(mcp, { cwd: ctx.io.cwd, timeoutMs: MCP_TIMEOUT_MS, file: pin.source })) found.push(d);
  }
  return sortDiagnostics(found);
}
