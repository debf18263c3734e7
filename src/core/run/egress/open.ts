/**
 * One run's (or one confined program's) egress proxy: where its socket goes, and starting it
 * with the refusal a run reports when it cannot.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diag } from '../../diagnostics.js';
import type { Attempt } from '../attempt.js';
import { failed } from '../attempt.js';
import { startEgressProxy, type EgressGate, type EgressProxy } from './proxy.js';

/** A Unix socket's path holds at most 107 bytes on Linux. */
const SOCKET_PATH_MAX = 107;

/**
 * A fresh path for a proxy's socket, in a directory that does not exist yet (startEgressProxy
 * makes it, and refuses one someone made first). In the temporary directory, or /tmp when that
 * path would be too long for a socket.
 */
export function egressSocketPath(): string {
  const leaf = join(`skillctl-egress-${randomBytes(9).toString('hex')}`, 'proxy.sock');
  const path = join(tmpdir(), leaf);
  return Buffer.byteLength(path) <= SOCKET_PATH_MAX ? path : join('/tmp', leaf);
}

export async function openEgress(socketPath: string, gate: EgressGate): Promise<{ readonly proxy: EgressProxy } | { readonly failure: Attempt['outcome'] }> {
  try {
    return { proxy: await startEgressProxy(socketPath, gate) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { failure: failed('unavailable', [diag('RUN_SANDBOX_UNAVAILABLE', `the egress proxy, the sandbox's only way to the network, could not start: ${reason}`)]) };
  }
}
