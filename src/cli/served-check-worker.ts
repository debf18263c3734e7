/**
 * The program of `skillctl mcp --skills`'s checker thread (served-check-thread.ts starts it): it
 * keeps the sets of files it is given and, on each request of a listing, answers with the ids of
 * the sets whose files are all still as given (core/agent-skills/served-check.ts).
 */
import { parentPort } from 'node:worker_threads';
import { setUnchanged, type PackedSet } from '../core/agent-skills/index.js';

/** What the server thread sends: the sets added and removed since the last message, and a check to make (its number). */
export interface CheckRequest {
  readonly add: readonly (PackedSet & { readonly id: number })[];
  readonly remove: readonly number[];
  readonly check?: number;
}

/** The answer to a check: its number, and the ids of the unchanged sets. */
export interface CheckReply {
  readonly check: number;
  readonly unchanged: Int32Array;
}

export function checkWorkerMain(): void {
  const port = parentPort;
  if (port === null) throw new Error('the checker runs only in a worker thread');
  const sets = new Map<number, PackedSet>();
  port.on('message', (m: CheckRequest) => {
    for (const s of m.add) sets.set(s.id, { paths: s.paths, identities: s.identities });
    for (const id of m.remove) sets.delete(id);
    if (m.check === undefined) return;
    const unchanged: number[] = [];
    for (const [id, set] of sets) if (setUnchanged(set)) unchanged.push(id);
    const reply: CheckReply = { check: m.check, unchanged: Int32Array.from(unchanged) };
    port.postMessage(reply);
  });
}
