/**
 * The remote part of a verification, whichever tree it read (the working tree, the index or a
 * commit): with --remote, the findings of each pin's origin are added to the offline result. The
 * origins are those the lock being verified records, so `--staged --remote` asks about the pins
 * being committed. remote.ts (OCI, MCP) loads only when asked.
 */
import { sortDiagnostics } from '../../../core/diagnostics.js';
import type { LockContext, LockVerification } from '../../../core/pins/index.js';
import type { Context } from '../../context.js';
import type { VerifyPinsOptions } from './options.js';

export async function withRemoteFindings(ctx: Context, opts: VerifyPinsOptions, lock: LockContext, lockFile: string, result: LockVerification): Promise<LockVerification> {
  // A provenact lock records no origins.
  if (opts.remote !== true || lock.format !== 'skillctl') return result;
  const remote = await (await import('./remote.js')).remoteFindings(ctx, lock.lock, lockFile, {
    startServers: opts.startServers === true,
    privateOrigins: opts.privateOrigins === true,
    mcpTokens: opts.mcpTokenFile ?? [],
    ...(opts.timeout !== undefined ? { timeoutSeconds: opts.timeout } : {}),
  });
  return remote.length > 0 ? { ...result, ok: false, diagnostics: sortDiagnostics([...result.diagnostics, ...remote]) } : result;
}
