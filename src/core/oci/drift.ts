/**
 * `verify-pins --remote` for pins pulled from an OCI registry: does each pinned tag still resolve
 * to the pinned manifest digest, and does the artifact of that digest hold what the pin pins? A
 * tag that moved is OCI_TAG_DRIFT. An origin is a claim a reviewer reads as "this came from the
 * team's registry": a lock whose digests were changed beside the skill's files, keeping the
 * origin, passes every offline check, so the artifact's config (the manifest and content digests
 * push recorded) is fetched and compared, and a pin that differs is OCI_ORIGIN_MISMATCH.
 * Read-only (nothing is cached); a registry that cannot be asked gives its own code (exit 2), so
 * a silent registry never passes for an unchanged one.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { isSkillctlError } from '../errors.js';
import type { SkillPin } from '../pins/index.js';
import { RegistryClient } from './client.js';
import { remoteHead } from './fetch-artifact.js';
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
      const client = new RegistryClient(ref, transport);
      const byName = origin.reference.replace(/:[^:/]+$/, '');
      // Pulled by digest alone: there is no tag that could move.
      const now = ref.tag !== undefined ? await client.resolveDigest(ref.tag) : origin.digest;
      if (now !== origin.digest) {
        out.push(
          diag('OCI_TAG_DRIFT', `${pin.skill_id} ${pin.skill_version}: ${origin.reference} now resolves to ${now}, not the pinned ${origin.digest}`, {
            file: lockFile,
            pointer,
            hint: `someone pushed over the tag; review it, then skillctl pin ${origin.reference} to take it, or pull ${byName}@${origin.digest}`,
          }),
        );
      }
      const held = (await remoteHead(client, ref, origin.digest)).config;
      if (held.manifest_digest !== pin.manifest_digest || held.content_digest !== pin.content_digest) {
        const which = held.content_digest !== pin.content_digest ? `content ${held.content_digest}, the pin ${pin.content_digest}` : `manifest ${held.manifest_digest}, the pin ${pin.manifest_digest}`;
        out.push(
          diag('OCI_ORIGIN_MISMATCH', `${pin.skill_id} ${pin.skill_version}: ${pin.source} is not what ${byName}@${origin.digest} holds (its ${which})`, {
            file: lockFile,
            pointer,
            hint: `the pinned files were changed after the pull: pull ${byName}@${origin.digest} again, or drop the origin if the change is meant`,
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
