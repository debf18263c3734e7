/**
 * One run's (or one confined program's) egress proxy: where its socket goes, whether it reads
 * HTTPS, and starting it with the refusal a run reports when it cannot.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { diag } from '../../diagnostics.js';
import type { NetGrant } from '../../policy/grant.js';
import type { Attempt } from '../attempt.js';
import { failed } from '../attempt.js';
import { ensureScratchRoot, scratchRoot } from '../scratch-root.js';
import { startEgressProxy, type EgressGate, type EgressProxy } from './proxy.js';

/** A Unix socket's path holds at most 107 bytes on Linux. */
const SOCKET_PATH_MAX = 107;

export interface EgressPlan {
  /** The proxy's socket, in a directory that does not exist yet. */
  readonly socket: string;
  /**
   * Whether the proxy reads HTTPS tunnels: then the sandbox shows the run's authority's
   * certificate (egressCaIn) and the bridge names it as the only trust store.
   */
  readonly readsHttps: boolean;
}

/** A started proxy, and what bubblewrap is handed for it (EGRESS_FDS, bwrap-args.ts). */
export interface OpenEgress {
  readonly proxy: EgressProxy;
  /**
   * From descriptor 3 on: the proxy's socket, pinned (socket-pin.ts), then the authority's
   * certificate when the proxy reads HTTPS, as bytes through a pipe. Neither is a path another
   * run could change before bubblewrap mounts it.
   */
  readonly fds: readonly (number | Uint8Array)[];
}

/**
 * The egress a grant needs: none without net.http. A fresh socket path, in a directory that does
 * not exist yet (startEgressProxy makes it, and refuses one someone made first), in skillctl's
 * own directory in the temporary directory (scratch-root.ts, protected in every run), or in
 * /tmp's when that path would be too long for a socket. HTTPS is read when an https prefix names
 * a path: a tunnel's host and port would reach every other path.
 */
export function planEgress(netHttp: readonly NetGrant[]): EgressPlan | undefined {
  if (netHttp.length === 0) return undefined;
  const leaf = join(`skillctl-egress-${randomBytes(9).toString('hex')}`, 'proxy.sock');
  const path = join(scratchRoot(tmpdir()), leaf);
  const socket = Buffer.byteLength(path) <= SOCKET_PATH_MAX ? path : join(scratchRoot('/tmp'), leaf);
  return { socket, readsHttps: netHttp.some((g) => g.value.protocol === 'https:' && g.value.path !== '/') };
}

export async function openEgress(plan: EgressPlan, gate: EgressGate): Promise<OpenEgress | { readonly failure: Attempt['outcome'] }> {
  // The run made it at its start; checked again here (a mkdir and an lstat), as a proxy can start
  // long after (a built-in's program) and this module is used on its own too.
  const unsafe = await ensureScratchRoot(dirname(dirname(plan.socket)));
  if (unsafe !== undefined) return { failure: failed('unavailable', [unsafe]) };
  try {
    // cert.ts only for a run that reads HTTPS: most runs never make a certificate.
    const authority = plan.readsHttps ? (await import('./cert.js')).createRunAuthority() : undefined;
    const proxy = await startEgressProxy(plan.socket, gate, authority);
    return { proxy, fds: [proxy.socketFd, ...(authority !== undefined ? [Buffer.from(authority.certificate)] : [])] };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { failure: failed('unavailable', [diag('RUN_SANDBOX_UNAVAILABLE', `the egress proxy, the sandbox's only way to the network, could not start: ${reason}`)]) };
  }
}
