/**
 * `verify-pins --remote`: each pin that records where it was pulled from is checked against its
 * origin as it is now (each scheme's core `remoteDrift`): an OCI tag against the pinned manifest
 * digest, an MCP server's skill against the pinned resource set. A lock's MCP origins name
 * programs to start, and a lock is as untrusted as the change that brings it: a pull request that
 * adds an origin whose command is its own program would have it run by the CI job checking it.
 * So they are started only with --start-servers, which a user passes for a lock they reviewed;
 * without it each is reported (MCP_PULL_SERVER_NOT_STARTED, exit 2: never a silent pass). A server
 * reached by URL starts no program; it, and a registry, are asked only when their host is a
 * public address, checked before and again as each connection is made, unless --private-origins
 * (./private-origins.ts), and is sent a bearer token only when its origin is one the user named
 * with the token (./mcp-tokens.ts).
 */
import { sortDiagnostics, type Diagnostic } from '../../../core/diagnostics.js';
import { diag } from '../../../core/diagnostics.js';
import { remoteDrift as mcpDrift, serverLabel } from '../../../core/mcp-skills/index.js';
import { Deadline, remoteDrift as ociDrift } from '../../../core/oci/index.js';
import type { SkillctlLock } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import { transportOptions } from '../../oci-env.js';
import { serverStderr } from '../../server-stderr.js';
import { readTokenFile } from '../../token-file.js';
import { tokenFor, type TokenFor } from './mcp-tokens.js';
import { privateOrigins } from './private-origins.js';

/** How long each request to an MCP server may take. */
const MCP_TIMEOUT_MS = 30_000;

/**
 * The remote findings of `lock`. `timeoutSeconds` (--timeout) is one deadline over them all,
 * counted from here: each request is otherwise bounded (60 s without progress for a registry, 30
 * s for an MCP server), but a registry that trickles, or a lock of many slow servers, is not.
 * Once it passes, every origin not yet answered is reported with its scheme's code.
 */
export async function remoteFindings(
  ctx: Context,
  lock: SkillctlLock,
  lockFile: string,
  opts: { readonly startServers: boolean; readonly privateOrigins: boolean; readonly timeoutSeconds?: number; readonly mcpTokens: readonly TokenFor[] },
): Promise<Diagnostic[]> {
  // Each token read and checked before any origin is asked.
  const tokens = new Map<string, string>();
  for (const t of opts.mcpTokens) tokens.set(t.origin, await readTokenFile(ctx, t.file, '--mcp-token-file'));
  const deadline = opts.timeoutSeconds !== undefined ? new Deadline(opts.timeoutSeconds) : undefined;
  // Started now rather than at the first request: the remote part is what the bound is for.
  deadline?.signal();
  const bound = deadline !== undefined ? { deadline } : {};
  const refused = opts.privateOrigins ? new Map<number, Diagnostic>() : await privateOrigins(lock.skills, lockFile);
  const found: Diagnostic[] = [...refused.values()];
  // ociDrift names each pin by its index in the lock, so it takes them all (and skips the others:
  // those without an OCI origin, a refused one's cleared). The transport checks the addresses it
  // connects to as well (publicOnly): the names are resolved again when it does.
  const asked = lock.skills.map((pin, i) => (refused.has(i) ? { ...pin, origin: {} } : pin));
  const transport = { ...(await transportOptions(ctx.io, {})), ...bound, ...(opts.privateOrigins ? {} : { publicOnly: true }) };
  if (asked.some((pin) => pin.origin?.oci !== undefined)) for (const d of await ociDrift(asked, transport, lockFile)) found.push(d);
  for (const pin of asked) {
    const mcp = pin.origin?.mcp;
    if (mcp === undefined) continue;
    if ('command' in mcp.server && !opts.startServers) {
      found.push(
        diag('MCP_PULL_SERVER_NOT_STARTED', `${serverLabel(mcp.server)} was not started: verify-pins --remote starts the programs a lock records only with --start-servers`, {
          file: pin.source,
          hint: "review the lock's origin.mcp.server.command, then pass --start-servers; never in a job that runs on changes you have not reviewed",
        }),
      );
      continue;
    }
    // As for a registry, the server's connections are checked as they are made (publicOnly).
    const publicOnly = opts.privateOrigins ? {} : { publicOnly: true };
    for (const d of await mcpDrift(mcp, { cwd: ctx.io.cwd, timeoutMs: MCP_TIMEOUT_MS, file: pin.source, onStderr: serverStderr(ctx), ...bound, ...tokenFor(mcp.server, tokens), ...publicOnly })) found.push(d);
  }
  return sortDiagnostics(found);
}
