/**
 * A lock compared with the lock it replaces (`verify-pins --base REV`). A lock is as untrusted
 * as the change that brings it: a pull request can edit a pinned skill, generate a key of its
 * own, add it to the keys file, record the file's new digest (`pin --trust-keys`) and re-pin the
 * same id and version (`--replace`), and every check of the lock alone passes, since the lock
 * vouches for itself. Against the base branch's lock, what only a reviewed change should do is a
 * finding: other trust anchors, fewer signers required (by the lock, by a pin the base has, or by
 * a new version of a skill the base pins), a skill root dropped (which hides the skills under it
 * from the unpinned check), other digests for an identity already pinned.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { checkProvenactAgainstBase } from './against-base-provenact.js';
import type { LockContext } from './context.js';
import type { LoadedLock, SignerKeys, SkillctlLock } from './model.js';
import type { LockVerification } from './verify-lock.js';
import { skillRootsOf } from './skill-roots.js';

const TRUST_HINT = `a change of the lock's trust is reviewed and merged on its own; it is not verified by the change it lets through`;

/**
 * Findings of the lock a change leaves (`head`, named `file`; undefined when there is none, or it
 * does not load) against `base`, the lock of the base commit `baseLabel`. Two skillctl locks are
 * compared field by field, and so are two provenact locks, by the same rules mapped to their
 * per-entry trust anchors (./against-base-provenact.ts). A lock of another format than the base's
 * is itself a change of trust: a provenact lock has no keys file, `min_signers` or skill roots to
 * compare, and pins only `skills/<id>/<version>` bundles, so a change that rewrote the base's
 * skillctl lock as an empty provenact lock dropped every pin, key and signer the base required, and
 * nothing else would say so.
 */
export function checkLockAgainstBase(head: LoadedLock | undefined, base: LoadedLock, file: string, baseLabel: string, keys?: LockKeys): Diagnostic[] {
  if (head?.format === 'skillctl' && base.format === 'skillctl') return checkAgainstBase(head.lock, base.lock, file, baseLabel, keys?.format === 'skillctl' ? keys.keys : undefined);
  if (head?.format === 'provenact' && base.format === 'provenact') return checkProvenactAgainstBase(head.lock, base.lock, file, baseLabel, keys?.format === 'provenact' ? keys.byDigest : undefined);
  const now = head === undefined ? 'there is no lock that loads' : `the lock is a ${head.format} lock`;
  return [diag('PIN_TRUST_CHANGED', `${now}, where ${baseLabel} has a ${base.format} lock: nothing the base requires is compared`, { file, pointer: '', hint: TRUST_HINT })];
}

export type { SignerKeys } from './model.js';

/**
 * The keys a lock's signers are counted by: a skillctl lock's keys file, or a provenact lock's
 * keys files by digest (each entry names its own).
 */
export type LockKeys = { readonly format: 'skillctl'; readonly keys: SignerKeys } | { readonly format: 'provenact'; readonly byDigest: ReadonlyMap<string, SignerKeys> };

/**
 * The keys `ctx`'s signers are counted by against a base: a skillctl lock's keys file, or each
 * provenact entry's keys file as its verification (`verified`) loaded it, by digest.
 */
export function lockKeys(ctx: LockContext, verified: LockVerification): LockKeys {
  if (ctx.format === 'skillctl') return { format: 'skillctl', keys: ctx.keys };
  const byDigest = new Map<string, SignerKeys>();
  for (const v of verified.skills) if ('keys_digest' in v.pin && 'keys' in v && v.keys !== undefined) byDigest.set(v.pin.keys_digest, v.keys);
  return { format: 'provenact', byDigest };
}

/**
 * Findings of `lock` (named `file`) against `base`, the lock of the base commit `baseLabel`.
 * `keys`, the keys file the lock trusts (the base's, or `PIN_TRUST_CHANGED` already): signers are
 * counted by key, as min_signers counts them, since a keys file may give one key two ids.
 */
export function checkAgainstBase(lock: SkillctlLock, base: SkillctlLock, file: string, baseLabel: string, keys?: SignerKeys): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = TRUST_HINT;
  if (base.keys_digest !== undefined && (lock.keys_digest !== base.keys_digest || lock.keys_file !== base.keys_file)) {
    out.push(diag('PIN_TRUST_CHANGED', `the keys file is not the one ${baseLabel} trusts (${base.keys_file ?? ''} ${base.keys_digest})`, { file, pointer: '/keys_digest', hint }));
  }
  if (lock.min_signers < base.min_signers) {
    out.push(diag('PIN_TRUST_CHANGED', `min_signers is ${lock.min_signers}, lower than ${base.min_signers} in ${baseLabel}`, { file, pointer: '/min_signers', hint }));
  }
  const roots = new Set(skillRootsOf(lock));
  for (const r of skillRootsOf(base)) {
    if (!roots.has(r)) out.push(diag('PIN_TRUST_CHANGED', `skill root ${r} of ${baseLabel} is no longer searched`, { file, pointer: '/skill_roots', hint }));
  }
  const pinned = new Map(base.skills.map((p) => [`${p.skill_id}@${p.skill_version}`, p]));
  const count = (signers: readonly string[]): number => new Set(signers.map((s) => keys?.get(s)?.base64 ?? `id:${s}`)).size;
  const fewest = fewestSigners(base, count);
  lock.skills.forEach((p, i) => {
    const was = pinned.get(`${p.skill_id}@${p.skill_version}`);
    if (was === undefined) {
      // A new version of a skill the base pins: with min_signers 0 and the base's versions signed
      // pin by pin, a change could pin a tampered version that requires no signer at all.
      const least = fewest.get(p.skill_id);
      // By key: two ids of one key in the keys file (alice and alice.ci) are one signer, not two.
      const required = count(p.signers);
      if (least !== undefined && required < least) {
        const what = required === p.signers.length ? `${required} signer(s)` : `${p.signers.length} signer(s) of ${required} distinct key(s)`;
        out.push(diag('PIN_TRUST_CHANGED', `${p.skill_id} ${p.skill_version} requires ${what}; ${baseLabel} requires at least ${least} for every version of ${p.skill_id} it pins`, { file, pointer: `/skills/${i}/signers`, hint }));
      }
      return;
    }
    const dropped = was.signers.filter((s) => !p.signers.includes(s));
    if (dropped.length > 0) {
      out.push(diag('PIN_TRUST_CHANGED', `${p.skill_id} ${p.skill_version} no longer requires ${dropped.join(', ')}, as ${baseLabel} does`, { file, pointer: `/skills/${i}/signers`, hint }));
    }
    // archive_digest may go: a pin moves from an archive to the folder it was packed from.
    for (const key of ['manifest_digest', 'content_digest'] as const) {
      if (p[key] === was[key]) continue;
      out.push(
        diag('PIN_IMMUTABLE', `${p.skill_id} ${p.skill_version} has ${key} ${p[key]}, but ${baseLabel} pins it with ${was[key]}`, {
          file,
          pointer: `/skills/${i}/${key}`,
          hint: 'a changed skill is a new version, never a re-pinned old one: give it a new skill_version',
        }),
      );
    }
  });
  const packs = new Map(base.packs.map((p) => [`${p.profile}@${p.skill_pack_version}`, p]));
  lock.packs.forEach((p, i) => {
    const was = packs.get(`${p.profile}@${p.skill_pack_version}`);
    if (was !== undefined && was.pack_digest !== p.pack_digest) {
      out.push(
        diag('PIN_IMMUTABLE', `pack ${p.profile} ${p.skill_pack_version} has pack_digest ${p.pack_digest}, but ${baseLabel} pins it with ${was.pack_digest}`, {
          file,
          pointer: `/packs/${i}/pack_digest`,
          hint: 'a changed pack is a new version: give it a new skill_pack_version',
        }),
      );
    }
  });
  return out;
}

/** For each skill id the lock pins, the fewest signers (as `count` counts them) any of its versions requires. */
function fewestSigners(lock: SkillctlLock, count: (signers: readonly string[]) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of lock.skills) out.set(p.skill_id, Math.min(out.get(p.skill_id) ?? Infinity, count(p.signers)));
  return out;
}
