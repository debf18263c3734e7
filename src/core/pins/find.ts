import { diag, type Result } from '../diagnostics.js';
import type { SkillctlLock, SkillPin } from './model.js';

/**
 * The pin of `skillId` (at `skillVersion`, when given) in `lock`. Without a version, exactly one
 * pinned version must exist: picking one of several would be a guess (`PIN_AMBIGUOUS`).
 */
export function findPin(lock: SkillctlLock, skillId: string, skillVersion?: string): Result<SkillPin> {
  const matches = lock.skills.filter((p) => p.skill_id === skillId && (skillVersion === undefined || p.skill_version === skillVersion));
  const what = skillVersion === undefined ? skillId : `${skillId} ${skillVersion}`;
  if (matches.length === 1) return { ok: true, value: matches[0] as SkillPin, diagnostics: [] };
  if (matches.length === 0) {
    const versions = lock.skills.filter((p) => p.skill_id === skillId).map((p) => p.skill_version);
    return {
      ok: false,
      diagnostics: [
        diag('PIN_NOT_FOUND', `no pin for ${what}`, versions.length > 0 ? { hint: `pinned versions: ${versions.join(', ')}` } : { hint: 'pin it with skillctl pin <bundle-dir>' }),
      ],
    };
  }
  return {
    ok: false,
    diagnostics: [
      diag(skillVersion === undefined ? 'PIN_AMBIGUOUS' : 'PIN_DUPLICATE', `${matches.length} pins for ${what}: ${matches.map((p) => p.skill_version).join(', ')}`, {
        hint: skillVersion === undefined ? 'name the version' : 'remove the duplicate pin',
      }),
    ],
  };
}
