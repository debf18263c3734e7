/**
 * The origins a pin records for skills it pulled first (`pin oci://…`). The pull verified the
 * artifact and wrote its folder; the pin then walks that folder as it is. A process that changed
 * the folder in between (a skill granted the skills folder, say) would have its bytes pinned under
 * the artifact's name, and a reviewer reads an origin as "this came from our registry". So an
 * origin that says what the skill holds (the manifest and content digests the artifact's config
 * records) is recorded only on a pin with those very digests: any other is PIN_ORIGIN_MISMATCH,
 * and nothing is written.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { Sha256Digest } from '../digest/index.js';
import type { SkillctlLock, SkillOrigin } from './model.js';

export interface PulledOrigin {
  readonly origin: SkillOrigin;
  /** What the origin holds, when it says: the skill's manifest and content digests. */
  readonly holds?: { readonly manifest_digest: Sha256Digest; readonly content_digest: Sha256Digest };
}

/** `lock` with each origin set on the pin of its source, and a finding for each pin that is not what its origin holds. */
export function recordOrigins(lock: SkillctlLock, origins: ReadonlyMap<string, PulledOrigin> | undefined): { lock: SkillctlLock; diagnostics: Diagnostic[] } {
  if (origins === undefined || origins.size === 0) return { lock, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const skills = lock.skills.map((s) => {
    const pulled = origins.get(s.source);
    if (pulled === undefined) return s;
    const h = pulled.holds;
    if (h !== undefined && (h.manifest_digest !== s.manifest_digest || h.content_digest !== s.content_digest)) {
      const from = pulled.origin.oci !== undefined ? `${pulled.origin.oci.reference}@${pulled.origin.oci.digest}` : 'its origin';
      diagnostics.push(
        diag('PIN_ORIGIN_MISMATCH', `${s.source} holds content ${s.content_digest}, not the ${h.content_digest} of ${from} it was pulled from`, {
          file: s.source,
          hint: 'the folder changed between the pull and the pin: pull it again, then pin',
        }),
      );
    }
    return { ...s, origin: pulled.origin };
  });
  return { lock: { ...lock, skills }, diagnostics };
}
