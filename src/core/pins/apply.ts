/**
 * Merging prepared pins into a lock: the rules that keep an identity's pin where it is. A lock is
 * keyed by `(skill_id, skill_version)` (`(profile, skill_pack_version)` for a pack), one entry
 * each (PIN_DUPLICATE), and seed 003 says that identity MUST be immutable: its digests never
 * change without `--replace` (PIN_IMMUTABLE), and its source moves only where nothing is lost.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { canonicalize } from '../digest/index.js';
import { compareSkillPins } from './lock.js';
import type { PackPin, SkillctlLock, SkillPin } from './model.js';
import type { Prepared } from './prepare.js';

export interface PinChange {
  readonly kind: 'skill' | 'pack';
  /** skill_id, or the pack's profile. */
  readonly id: string;
  /** skill_version, or skill_pack_version. */
  readonly version: string;
  readonly source: string;
  readonly action: 'added' | 'updated' | 'moved' | 'unchanged' | 'removed';
  /** `moved`: the source the pin had. */
  readonly from?: string;
}

/**
 * Why the pin of an identity may not move from `old` to `next`, or undefined when it may. It
 * moves when the old source is gone (a folder moved or renamed), or from an archive to a folder:
 * the folder is what the archive was packed from, byte for byte, and the one verify-pins finds
 * under a skill root. Anything else would leave a source that still exists unpinned, which is
 * how `pin dist/x.tgz` used to take a folder's pin away and fail CI where dist/ is not committed.
 */
function refusedMove(what: string, old: { source: string; archive: boolean }, next: { source: string; archive: boolean }, present: (source: string) => boolean): Diagnostic | undefined {
  if (!present(old.source) || (old.archive && !next.archive)) return undefined;
  const message = `${what} is already pinned from ${old.source}; a lock pins one source per identity, so ${next.source} is not pinned`;
  const hint =
    next.archive && !old.archive
      ? `nothing to do: the pin of ${old.source} covers the same content (verify-pins checks the folder). To pin the archive in its place, remove ${old.source} first`
      : `remove one of the two, or give the skill in ${next.source} a new version`;
  return diag('PIN_SOURCE_CONFLICT', message, { file: next.source, hint });
}

/** What tells one kind of pin from another: its identity, whether its content is the same, whether it is an archive. */
interface PinKind<T extends { readonly source: string }> {
  readonly kind: PinChange['kind'];
  readonly id: (e: T) => string;
  readonly version: (e: T) => string;
  /** The digests that make the identity's content (PIN_IMMUTABLE when they differ). */
  readonly sameContent: (a: T, b: T) => boolean;
  readonly archive: (e: T) => boolean;
  readonly what: (e: T) => string;
  /** The new entry with what it inherits from the old one of the same content (default: nothing). */
  readonly carry?: (old: T, next: T) => T;
}

const SKILL: PinKind<SkillPin> = {
  kind: 'skill',
  id: (e) => e.skill_id,
  version: (e) => e.skill_version,
  sameContent: (a, b) => a.manifest_digest === b.manifest_digest && a.content_digest === b.content_digest,
  archive: (e) => e.archive_digest !== undefined,
  what: (e) => `${e.skill_id} ${e.skill_version}`,
  // A re-pin of a pulled skill's folder keeps where it was pulled from, while the content is the same.
  carry: (old, next) => (old.origin !== undefined && next.origin === undefined && old.source === next.source ? { ...next, origin: old.origin } : next),
};

const PACK: PinKind<PackPin> = {
  kind: 'pack',
  id: (e) => e.profile,
  version: (e) => e.skill_pack_version,
  sameContent: (a, b) => a.pack_digest === b.pack_digest,
  archive: () => false,
  what: (e) => `pack ${e.profile} ${e.skill_pack_version}`,
};

interface Merge {
  readonly replace: boolean;
  readonly present: (source: string) => boolean;
  readonly changes: PinChange[];
  readonly diagnostics: Diagnostic[];
}

/** `list` with `e` merged in (or unchanged, with the finding, when the rules refuse it). */
function mergeOne<T extends { readonly source: string }>(list: readonly T[], next: T, k: PinKind<T>, m: Merge): T[] {
  const old = list.find((s) => k.id(s) === k.id(next) && k.version(s) === k.version(next));
  const e = old !== undefined && k.carry !== undefined && k.sameContent(old, next) ? k.carry(old, next) : next;
  if (old !== undefined && !k.sameContent(old, e) && !m.replace) {
    m.diagnostics.push(
      diag('PIN_IMMUTABLE', `${k.what(e)} is already pinned with other digests; an identity never changes content`, {
        file: e.source,
        hint: 'give the changed bundle a new version, or pass --replace if the pinned content was never released',
      }),
    );
    return [...list];
  }
  const refused = old !== undefined && old.source !== e.source ? refusedMove(k.what(e), { source: old.source, archive: k.archive(old) }, { source: e.source, archive: k.archive(e) }, m.present) : undefined;
  if (refused !== undefined) {
    m.diagnostics.push(refused);
    return [...list];
  }
  // A source now holding another identity (a version bump in place) no longer holds the old one.
  for (const gone of list.filter((s) => s !== old && s.source === e.source)) {
    m.changes.push({ kind: k.kind, id: k.id(gone), version: k.version(gone), source: gone.source, action: 'removed' });
  }
  const action: Pick<PinChange, 'action' | 'from'> =
    old === undefined ? { action: 'added' } : old.source !== e.source ? { action: 'moved', from: old.source } : { action: canonicalize(old) === canonicalize(e) ? 'unchanged' : 'updated' };
  m.changes.push({ kind: k.kind, id: k.id(e), version: k.version(e), source: e.source, ...action });
  return [...list.filter((s) => s !== old && s.source !== e.source), e];
}

/**
 * Merges prepared pins into `lock`, enforcing the immutability of (id, version). `present` says
 * whether a source the lock names still exists (default: every one does, so no pin moves).
 */
export function applyPins(
  lock: SkillctlLock,
  prepared: readonly Prepared[],
  replace: boolean,
  present: (source: string) => boolean = () => true,
): { lock: SkillctlLock; changes: PinChange[]; diagnostics: Diagnostic[] } {
  const m: Merge = { replace, present, changes: [], diagnostics: [] };
  let skills: SkillPin[] = [...lock.skills];
  let packs: PackPin[] = [...lock.packs];
  for (const p of prepared) {
    if (p.kind === 'skill') skills = mergeOne(skills, p.entry, SKILL, m);
    else packs = mergeOne(packs, p.entry, PACK, m);
  }
  return { lock: { ...lock, skills: skills.sort(compareSkillPins), packs }, changes: m.changes, diagnostics: m.diagnostics };
}
