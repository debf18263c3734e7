/**
 * What `mcp --approve` approved: the skills the project's lock pinned when the server started.
 * An approval names a tool, and a call runs whatever the lock pins under the tool's binding when
 * it is called: without this, a re-pin during the server's life (a new version that deletes
 * more, a project skill pinned under a built-in's id) would run on an approval given for
 * something else. Each approved call passes the digests pinned then (RunRequest.approvedPins),
 * and the run refuses a skill that is not one of them: its manifest and its content, since a
 * manifest without content_digest covers no other file of the bundle.
 */
import { join } from 'node:path';
import { loadLock, readLockBytes } from '../../../core/pins/index.js';
import { LOCK_PATH, type ApprovedPin } from '../../../core/run/index.js';

/** skill id -> the digests the lock pinned (manifest bundles only: Agent Skills folders run nothing). */
export type ApprovedPins = ReadonlyMap<string, readonly ApprovedPin[]>;

/**
 * The lock's pins now. No project or no lock: none (each approved call may then run only a
 * built-in). A lock that cannot be read counts as none too: a call that resolves through it later
 * is refused, never approved by default.
 */
export async function approvedPinsNow(root: string | undefined): Promise<ApprovedPins> {
  const out = new Map<string, ApprovedPin[]>();
  if (root === undefined) return out;
  let bytes: Buffer;
  try {
    bytes = await readLockBytes(join(root, LOCK_PATH));
  } catch {
    return out;
  }
  const load = loadLock(bytes, LOCK_PATH);
  if (load.loaded?.format !== 'skillctl') return out;
  for (const pin of load.loaded.lock.skills) {
    if (pin.kind !== undefined) continue;
    out.set(pin.skill_id, [...(out.get(pin.skill_id) ?? []), { manifest_digest: pin.manifest_digest, content_digest: pin.content_digest }]);
  }
  return out;
}
