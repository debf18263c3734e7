/**
 * One run's (or one confined program's) egress proxy: where its socket goes, whether it reads
 * HTTPS, and starting it with the refusal a run reports when it cannot.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { diag } from '../../diagnostics.js';
import type { NetGrant } from '../../policy/grant.js';
import type { Attempt } from '../attempt.js';
import { failed } from '../attempt.js';
import { startEgressProxy, type EgressGate, type EgressProxy } from './proxy.js';

/** A Unix socket's path holds at most 107 bytes on Linux. */
const SOCKET_PATH_MAX = 107;

export interface EgressPlan {
  /** The proxy's socket, in a directory that does not exist yet. */
  readonly socket: string;
  /**
   * The run's authority's certificate, beside the socket, when the proxy reads HTTPS tunnels:
   * the sandbox shows it and names it as the only trust store (egressCaIn, the bridge).
   */
  readonly ca?: string;
}

/**
 * The egress a grant needs: none without net.http. A fresh socket path, in a directory that does
 * not exist yet (startEgressProxy makes it, and refuses one someone made first), in the
 * temporary directory, or /tmp when that path would be too long for a socket. HTTPS is read
 * when an https prefix names a path: a tunnel's host and port would reach every other path.
 */
export function planEgress(netHttp: readonly NetGrant[]): EgressPlan | undefined {
  if (netHttp.length === 0) return undefined;
  const leaf = join(`skillctl-egress-${randomBytes(9).toString('hex')}`, 'proxy.sock');
  const path = join(tmpdir(), leaf);
  const socket = Buffer.byteLength(path) <= SOCKET_PATH_MAX ? path : join('/tmp', leaf);
  const reads = netHttp.some((g) => g.value.protocol === 'https:' && g.value.path !== '/');
  return reads ? { socket, ca: join(dirname(socket), 'ca.pem') } : { socket };
}

export async function openEgress(plan: EgressPlan, gate: EgressGate): Promise<{ readonly proxy: EgressProxy } | { readonly failure: Attempt['outcome'] }> {
  try {
    // cert.ts only for a run that reads HTTPS: most runs never make a certificate.
    const authority = plan.ca !== undefined ? (await import('./cert.js')).createRunAuthority() : undefined;
    const proxy = await startEgressProxy(plan.socket, gate, authority);
    if (plan.ca !== undefined && authority !== undefined) {
      try {
        await writeFile(plan.ca, authority.certificate, { flag: 'wx', mode: 0o644 });
      } catch (err) {
        await proxy.close();
        throw err;
      }
    }
    return { proxy };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { failure: failed('unavailable', [diag('RUN_SANDBOX_UNAVAILABLE', `the egress proxy, the sandbox's only way to the network, could not start: ${reason}`)]) };
  }
}
