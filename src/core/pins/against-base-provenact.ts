/**
 * A provenact lock compared with the provenact lock it replaces (`verify-pins --base REV`), by the
 * rules skillctl locks are compared by (./against-base.ts), mapped to a format whose trust anchors
 * are per entry. An entry's identity is `id` and `version` (its `bundle_dir` must be
 * `skills/<id>/<version>`); what that identity pins, and never changes, is `artifact` and
 * `manifest_hash` (`PIN_IMMUTABLE`). Its trust is its keys file (`keys_file`, `keys_digest`) and
 * the signers it requires; the lock's trust is every keys file its entries pin, the fewest signers
 * any entry requires (the format has no lock-wide `min_signers`: `MIN_SIGNERS` is the runner's
 * choice), and `substrate_pin`, the provenact-cli commit provenact's CI builds to verify with
 * (`PIN_TRUST_CHANGED`). Each entry verifies under its own keys, so without the comparison a change
 * could re-pin an entry, or add one, under keys it generated and a keys file it wrote.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ProvenactLock, ProvenactPin, SignerKeys } from './model.js';

const TRUST_HINT = `a change of the lock's trust is reviewed and merged on its own; it is not verified by the change it lets through`;
const IMMUTABLE_HINT = 'a changed bundle is a new version, never a re-pinned old one: release it under a new version';

const identity = (p: ProvenactPin): string => JSON.stringify([p.id, p.version]);
const substrate = (l: ProvenactLock): string => (l.substrate_pin === undefined ? 'none' : `${l.substrate_pin.repo} ${l.substrate_pin.commit}`);

/**
 * Findings of `lock` (named `file`) against `base`, the provenact lock of the base commit
 * `baseLabel`. `keys`, by keys digest, the keys files of the lock's entries (each read and hashed
 * to its entry's digest): an entry's signers are counted by key where its keys file is there, as
 * the runner's MIN_SIGNERS counts them, since a keys file may give one key two ids.
 */
export function checkProvenactAgainstBase(lock: ProvenactLock, base: ProvenactLock, file: string, baseLabel: string, keys: ReadonlyMap<string, SignerKeys> = new Map()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const trust = (pointer: string, message: string): void => void out.push(diag('PIN_TRUST_CHANGED', message, { file, pointer, hint: TRUST_HINT }));
  // provenact's CI checks out and builds this commit to verify the bundles: another is another verifier.
  if (substrate(lock) !== substrate(base)) trust('/substrate_pin', `substrate_pin is ${substrate(lock)}, but ${baseLabel} pins ${substrate(base)}`);
  // The first entry of an identity is the pin; later ones are PIN_DUPLICATE already.
  const pinned = new Map<string, ProvenactPin>();
  for (const p of base.skills) if (!pinned.has(identity(p))) pinned.set(identity(p), p);
  const trustedKeys = new Set(base.skills.map((p) => p.keys_digest));
  // A loop, not Math.min(...): a lock of 64 MiB holds more entries than a call takes arguments.
  // A base without entries requires no signers yet.
  const count = (p: ProvenactPin): number => new Set(p.signers.map((s) => keys.get(p.keys_digest)?.get(s)?.base64 ?? `id:${s}`)).size;
  let floor = base.skills.length === 0 ? 0 : Infinity;
  for (const p of base.skills) floor = Math.min(floor, count(p));
  lock.skills.forEach((p, i) => {
    const at = `/skills/${i}`;
    const what = `${p.id} ${p.version}`;
    const was = pinned.get(identity(p));
    if (was === undefined) {
      // A new entry verifies under the keys it names: keys no entry of the base trusts are new
      // trust, as a skillctl lock's new keys file is. A base without entries trusts none yet.
      if (trustedKeys.size > 0 && !trustedKeys.has(p.keys_digest)) trust(`${at}/keys_digest`, `${what} trusts ${p.keys_file} ${p.keys_digest}, a keys file no entry of ${baseLabel} trusts`);
      const required = count(p);
      if (required < floor) {
        const signers = required === p.signers.length ? `${required} signers` : `${p.signers.length} signers of ${required} distinct key(s)`;
        trust(`${at}/signers`, `${what} requires ${signers}, fewer than any entry of ${baseLabel} requires (${floor})`);
      }
      return;
    }
    for (const key of ['artifact', 'manifest_hash'] as const) {
      if (p[key] !== was[key]) out.push(diag('PIN_IMMUTABLE', `${what} has ${key} ${p[key]}, but ${baseLabel} pins it with ${was[key]}`, { file, pointer: `${at}/${key}`, hint: IMMUTABLE_HINT }));
    }
    if (p.keys_digest !== was.keys_digest || p.keys_file !== was.keys_file) {
      trust(`${at}/keys_digest`, `${what} trusts ${p.keys_file} ${p.keys_digest}, not the keys file ${baseLabel} trusts for it (${was.keys_file} ${was.keys_digest})`);
    }
    // Signers swapped count as dropped: the one the base required no longer signs.
    const dropped = was.signers.filter((s) => !p.signers.includes(s));
    if (dropped.length > 0) trust(`${at}/signers`, `${what} no longer requires ${dropped.join(', ')}, whom ${baseLabel} requires for it`);
  });
  return out;
}
