// verify-pins --base on two provenact locks: the rules skillctl locks are compared by, mapped to
// a format whose trust anchors are per entry. Before, two provenact locks were not compared at
// all: a change re-pinning an entry to other digests, under other keys or with fewer signers, or
// adding one under keys of its own, was no finding (test/cli/verify-pins-provenact-base.test.ts
// makes the same changes in real git repositories).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLockAgainstBase, LOCK_VERSION, type LockKeys, type ProvenactLock, type ProvenactPin, type SkillctlLock, type SkillPin } from '../../../src/core/pins/index.js';
import type { Sha256Digest } from '../../../src/core/digest/index.js';

const digest = (c: string): Sha256Digest => `sha256:${c.repeat(64)}` as Sha256Digest;
const entry = (id: string, version: string, extra: Partial<ProvenactPin> = {}): ProvenactPin => ({
  id,
  version,
  bundle_dir: `skills/${id}/${version}`,
  artifact: digest('a'),
  manifest_hash: digest('b'),
  keys_file: 'public-keys.json',
  keys_digest: digest('c'),
  signers: ['alice.dev', 'codex.release'],
  ...extra,
});
const lock = (skills: readonly ProvenactPin[], extra: Partial<ProvenactLock> = {}): ProvenactLock => ({ schema_version: '1.0.0', substrate_pin: { repo: 'provenact', commit: '1'.repeat(40) }, skills, ...extra });
const BASE = lock([entry('echo.minimal', '0.1.0'), entry('fs.read_text', '0.1.0')]);

/** [code, pointer] of each finding of `head` against `base`. */
function found(head: ProvenactLock, base: ProvenactLock = BASE, keys?: LockKeys): string[][] {
  const ds = checkLockAgainstBase({ format: 'provenact', lock: head }, { format: 'provenact', lock: base }, 'pins/skills.lock.json', 'main (0123456789ab)', keys);
  for (const d of ds) assert.equal(d.file, 'pins/skills.lock.json');
  return ds.map((d) => [d.code, d.pointer ?? '']);
}

describe('verify-pins --base: two provenact locks', () => {
  it('the same lock, a new version under keys the base trusts, an entry removed: no finding', () => {
    assert.deepEqual(found(BASE), []);
    assert.deepEqual(found(lock([...BASE.skills, entry('echo.minimal', '0.2.0', { artifact: digest('d'), manifest_hash: digest('e') })])), []);
    assert.deepEqual(found(lock([entry('fs.read_text', '0.1.0')])), []);
    // More signers than the base required, and a base with no entries: nothing is weakened.
    assert.deepEqual(found(lock([entry('echo.minimal', '0.1.0', { signers: ['alice.dev', 'codex.release', 'opertus.release'] })])), []);
    assert.deepEqual(found(lock([entry('new', '0.1.0', { keys_digest: digest('9'), signers: ['x'] })]), lock([])), []);
  });

  it('an id and version pinned with other digests: PIN_IMMUTABLE at each', () => {
    const repinned = lock([entry('echo.minimal', '0.1.0', { artifact: digest('d'), manifest_hash: digest('e') }), entry('fs.read_text', '0.1.0', { manifest_hash: digest('e') })]);
    assert.deepEqual(found(repinned), [
      ['PIN_IMMUTABLE', '/skills/0/artifact'],
      ['PIN_IMMUTABLE', '/skills/0/manifest_hash'],
      ['PIN_IMMUTABLE', '/skills/1/manifest_hash'],
    ]);
    // Wherever the entry moved in the lock, and beside a duplicate that is unchanged.
    assert.deepEqual(found(lock([entry('echo.minimal', '0.1.0'), entry('fs.read_text', '0.1.0'), entry('echo.minimal', '0.1.0', { artifact: digest('d') })])), [['PIN_IMMUTABLE', '/skills/2/artifact']]);
  });

  it('an entry under other keys or with fewer signers: PIN_TRUST_CHANGED', () => {
    const weakened = lock([
      entry('echo.minimal', '0.1.0', { keys_digest: digest('f') }),
      entry('fs.read_text', '0.1.0', { signers: ['alice.dev'] }),
    ]);
    assert.deepEqual(found(weakened), [
      ['PIN_TRUST_CHANGED', '/skills/0/keys_digest'],
      ['PIN_TRUST_CHANGED', '/skills/1/signers'],
    ]);
    // The same keys under another name, and a signer swapped for another.
    assert.deepEqual(found(lock([entry('echo.minimal', '0.1.0', { keys_file: 'keys.json' }), entry('fs.read_text', '0.1.0', { signers: ['alice.dev', 'mallory'] })])), [
      ['PIN_TRUST_CHANGED', '/skills/0/keys_digest'],
      ['PIN_TRUST_CHANGED', '/skills/1/signers'],
    ]);
  });

  it('a new entry under keys no entry of the base trusts, or with fewer signers than any requires: PIN_TRUST_CHANGED', () => {
    const added = lock([...BASE.skills, entry('evil', '0.1.0', { keys_digest: digest('f') }), entry('echo.minimal', '0.2.0', { signers: ['alice.dev'] })]);
    assert.deepEqual(found(added), [
      ['PIN_TRUST_CHANGED', '/skills/2/keys_digest'],
      ['PIN_TRUST_CHANGED', '/skills/3/signers'],
    ]);
  });

  // The keys file every entry pins (digest c) gives alice's key a second id, alice.ci: signers
  // were counted by id, so a new version signed by alice alone, as both, passed for the two
  // signers every entry of the base requires (until the stop of 2026-12-01).
  it('a new entry whose signers are one key under two ids of the keys file: PIN_TRUST_CHANGED, counted by key', () => {
    const keys: LockKeys = { format: 'provenact', byDigest: new Map([[digest('c'), new Map([['alice.dev', { base64: 'A' }], ['alice.ci', { base64: 'A' }], ['codex.release', { base64: 'C' }]])]]) };
    const aliased = lock([...BASE.skills, entry('echo.minimal', '0.2.0', { signers: ['alice.ci', 'alice.dev'] })]);
    assert.deepEqual(found(aliased, BASE, keys), [['PIN_TRUST_CHANGED', '/skills/2/signers']]);
    const [d] = checkLockAgainstBase({ format: 'provenact', lock: aliased }, { format: 'provenact', lock: BASE }, 'pins/skills.lock.json', 'main (0123456789ab)', keys);
    assert.equal(d?.message, 'echo.minimal 0.2.0 requires 2 signers of 1 distinct key(s), fewer than any entry of main (0123456789ab) requires (2)');
    // Two keys, and the ids of a keys file that is not there counted as ids, as before.
    assert.deepEqual(found(lock([...BASE.skills, entry('echo.minimal', '0.2.0', { signers: ['alice.ci', 'codex.release'] })]), BASE, keys), []);
    assert.deepEqual(found(aliased), []);
  });

  it('another substrate_pin, or none: PIN_TRUST_CHANGED at /substrate_pin', () => {
    assert.deepEqual(found(lock(BASE.skills, { substrate_pin: { repo: 'provenact', commit: '2'.repeat(40) } })), [['PIN_TRUST_CHANGED', '/substrate_pin']]);
    assert.deepEqual(found({ schema_version: '1.0.0', skills: BASE.skills }), [['PIN_TRUST_CHANGED', '/substrate_pin']]);
    // generated_at is when the lock was written, not what it pins.
    assert.deepEqual(found(lock(BASE.skills, { generated_at: '2027-01-01T00:00:00Z' })), []);
  });
});

describe('verify-pins --base: two skillctl locks, the signers each pin requires', () => {
  const pin = (id: string, version: string, signers: readonly string[], content = 'b'): SkillPin => ({
    skill_id: id,
    skill_version: version,
    source: `manifests/${id}`,
    manifest_digest: digest('a'),
    content_digest: digest(content),
    files_digest: digest('d'),
    signers,
  });
  const skillctl = (skills: readonly SkillPin[]): SkillctlLock => ({ lock_version: LOCK_VERSION, min_signers: 0, keys_file: 'keys.json', keys_digest: digest('c'), skills, packs: [] });
  // min_signers 0: the project requires signatures pin by pin.
  const SIGNED = skillctl([pin('hello', '1.0.0', ['alice', 'bob']), pin('notes', '1.0.0', [])]);
  const against = (head: SkillctlLock): string[][] =>
    checkLockAgainstBase({ format: 'skillctl', lock: head }, { format: 'skillctl', lock: SIGNED }, 'pins/skills.lock.json', 'main (0123456789ab)').map((d) => [d.code, d.pointer ?? '', d.message]);

  it('a new version of a skill the base pins, with fewer signers than any version of it there: PIN_TRUST_CHANGED', () => {
    // Before, a change pinned a tampered hello 1.0.1 that required no signer, and passed.
    assert.deepEqual(against(skillctl([...SIGNED.skills, pin('hello', '1.0.1', [], 'e')])), [
      ['PIN_TRUST_CHANGED', '/skills/2/signers', 'hello 1.0.1 requires 0 signer(s); main (0123456789ab) requires at least 2 for every version of hello it pins'],
    ]);
    // Signed by two of the keys the base trusts (another pair than before): a release.
    assert.deepEqual(against(skillctl([...SIGNED.skills, pin('hello', '1.0.1', ['alice', 'carol'], 'e')])), []);
    // A skill the base does not pin, or pins unsigned, is min_signers' business.
    assert.deepEqual(against(skillctl([...SIGNED.skills, pin('new', '0.1.0', []), pin('notes', '1.1.0', [])])), []);
  });

  it('a pin the base has that no longer requires a signer it required: PIN_TRUST_CHANGED', () => {
    assert.deepEqual(against(skillctl([pin('hello', '1.0.0', ['alice']), pin('notes', '1.0.0', [])])), [
      ['PIN_TRUST_CHANGED', '/skills/0/signers', 'hello 1.0.0 no longer requires bob, as main (0123456789ab) does'],
    ]);
    // One more is more trust, not less.
    assert.deepEqual(against(skillctl([pin('hello', '1.0.0', ['alice', 'bob', 'carol']), pin('notes', '1.0.0', ['alice'])])), []);
  });
});
