/**
 * `verify-pins --remote` for pins pulled from an OCI registry: does each pinned tag still resolve
 * to the pinned manifest digest? Read-only (HEAD requests); a tag that moved is OCI_TAG_DRIFT, a
 * registry that cannot be asked gives its own code (exit 2), so a silent registry never passes
 * for an unchanged one.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { isSkillctlError } from '../errors.js';
import type { SkillPin } from '../pins/index.js';
import { RegistryClient } from './client.js';
import { parseOciReference } from './reference.js';
import type { TransportOptions } from './transport.js';

/** Findings for every pin (by its index in the lock) whose `origin.oci` tag no longer resolves to its digest. */
export async function remoteDrift(pins: readonly SkillPin[], transport: TransportOptions, lockFile: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const [i, pin] of pins.entries()) {
    const origin = pin.origin?.oci;
    if (origin === undefined) continue;
    const pointer = `/skills/${i}/origin/oci`;
    try {
      const ref = parseOciReference(origin.reference);
      // Pulled by digest alone: there is no tag that could move.
      if (ref.tag === undefined) continue;
      const now = await new RegistryClient(ref, transport).resolveDigest(ref.tag);
      if (now !== origin.digest) {
        out.push(
          diag('OCI_TAG_DRIFT', `${pin.skill_id} ${pin.skill_version}: ${origin.reference} now resolves to ${now}, not the pinned ${origin.digest}`, {
            file: lockFile,
            pointer,
            hint: `someone pushed over the tag; review it, then skillctl pin ${origin.reference} to take it, or pull ${origin.reference.replace(/:[^:/]+$/, '')}@${origin.digest}`,
          }),
        );
      }
    } catch (err) {
      if (!isSkillctlError(err)) throw err;
      out.push(diag(err.code, `${pin.skill_id} ${pin.skill_version}: ${err.message}`, { file: lockFile, pointer, ...(err.hint !== undefined ? { hint: err.hint } : {}) }));
    }
  }
  return out;
}
