// The budget contract, checked exhaustively: for every pack (the built-in ones and operator packs
// with multi-byte and astral text) and every budget from 0 to the full length + 10.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BUILTIN_PACKS,
  clampBudget,
  codePoints,
  fitLines,
  identityLine,
  packLines,
  PACK_MAX_CHARS,
  PACK_MIN_CHARS,
  renderPackText,
  type Pack,
} from '../../../src/core/behaviour-packs/index.js';
import { operatorPacks } from '../../helpers/packs.js';

function checkInvariants(pack: Pack, budget: number): void {
  const full = packLines(pack).join('\n');
  const r = renderPackText(pack, budget);
  const effective = Math.min(PACK_MAX_CHARS, Math.max(PACK_MIN_CHARS, budget));
  const where = `${pack.profile} at ${budget}`;
  assert.equal(r.max_chars, effective, where);
  assert.equal(r.clamped, effective !== budget, where);
  assert.equal(r.max_chars_requested, budget, where);
  assert.ok(codePoints(r.text) <= effective, `${where}: ${codePoints(r.text)} > ${effective}`);
  const lines = r.text.split('\n');
  assert.equal(lines[0], identityLine(pack), `${where}: the identity line is whole`);
  if (codePoints(full) <= effective) {
    assert.equal(r.truncated, false, where);
    assert.equal(r.text, full, where);
    return;
  }
  assert.equal(r.truncated, true, where);
  assert.ok(r.text.endsWith('\n...'), `${where}: ends with a line "..."`);
  const kept = r.text.slice(0, -'\n...'.length);
  assert.ok(full.startsWith(kept + '\n'), `${where}: a prefix of whole lines`);
  assert.ok(!(lines.at(-2) ?? '').startsWith('['), `${where}: never ends on a section header`);
  // Line-boundary cuts lose as little as they can: the next line (with its header, if it was
  // dropped) would not have fitted.
  const next = full.slice(kept.length + 1).split('\n');
  const wouldNeed = next[0]?.startsWith('[') ? 2 : 1;
  const bigger = [kept, ...next.slice(0, wouldNeed), '...'].join('\n');
  assert.ok(codePoints(bigger) > effective, `${where}: one more line would have fitted`);
}

describe('budget truncation', () => {
  it('holds every invariant for every pack and every budget 0..full+10', async () => {
    const packs = [...BUILTIN_PACKS, ...(await operatorPacks())];
    assert.ok(packs.length >= 6);
    let checked = 0;
    for (const pack of packs) {
      const size = codePoints(packLines(pack).join('\n'));
      for (let budget = 0; budget <= size + 10; budget++) {
        checkInvariants(pack, budget);
        checked++;
      }
    }
    assert.ok(checked > 6000);
  });

  it('more budget never gives fewer lines', () => {
    for (const pack of BUILTIN_PACKS) {
      let prev = 0;
      for (let budget = 0; budget <= codePoints(packLines(pack).join('\n')) + 10; budget++) {
        const n = renderPackText(pack, budget).text.split('\n').length;
        assert.ok(n >= prev, `${pack.profile} at ${budget}`);
        prev = n;
      }
    }
  });

  it('no budget means the whole pack, uncut, with the maximum as effective budget', () => {
    for (const pack of BUILTIN_PACKS) {
      const r = renderPackText(pack);
      assert.equal(r.text, packLines(pack).join('\n'));
      assert.deepEqual([r.truncated, r.clamped, r.max_chars, r.max_chars_requested], [false, false, PACK_MAX_CHARS, null]);
    }
  });

  it('clamps below the minimum, above the maximum, and negative budgets', () => {
    assert.deepEqual(clampBudget(-5), { max_chars: PACK_MIN_CHARS, clamped: true });
    assert.deepEqual(clampBudget(0), { max_chars: PACK_MIN_CHARS, clamped: true });
    assert.deepEqual(clampBudget(PACK_MIN_CHARS), { max_chars: PACK_MIN_CHARS, clamped: false });
    assert.deepEqual(clampBudget(1e20), { max_chars: PACK_MAX_CHARS, clamped: true });
    assert.deepEqual(clampBudget(undefined), { max_chars: PACK_MAX_CHARS, clamped: false });
  });

  it('the minimum fits the longest identity line a valid pack can have, plus the mark', () => {
    const longest = { profile: 'p'.repeat(32), skill_pack_version: `0.0.0-${'x'.repeat(26)}`, description: '', sections: [] };
    assert.equal(longest.skill_pack_version.length, 32);
    assert.ok(codePoints(identityLine(longest)) + '\n...'.length <= PACK_MIN_CHARS);
  });

  it('keeps a section header only together with at least one of its lines', () => {
    const lines = ['id', '[A]', 'a1', '[B]', 'b1'];
    assert.equal(fitLines(lines, 12).text, 'id\n...');
    assert.equal(fitLines(lines, 13).text, 'id\n[A]\na1\n...');
    assert.equal(fitLines(lines, 15).text, 'id\n[A]\na1\n...');
    assert.deepEqual(fitLines(lines, 16), { text: 'id\n[A]\na1\n[B]\nb1', truncated: false });
  });
});

describe('codePoints', () => {
  it('counts code points, not UTF-16 units or bytes', () => {
    assert.equal(codePoints(''), 0);
    assert.equal(codePoints('abc'), 3);
    assert.equal(codePoints('→'), 1);
    assert.equal(codePoints('🚨'), 1);
    assert.equal('🚨'.length, 2);
    assert.equal(codePoints('a🚨b→'), 4);
    // A lone surrogate (cannot come from UTF-8 text) still counts once.
    assert.equal(codePoints('\ud83d'), 1);
  });

  it('cuts an astral-text pack by characters: a budget a byte count would overrun still fits', async () => {
    const pack = (await operatorPacks()).find((p) => p.profile === 'acme-oncall') as Pack;
    const full = packLines(pack).join('\n');
    assert.ok(Buffer.byteLength(full) > codePoints(full));
    const r = renderPackText(pack, codePoints(full));
    assert.equal(r.truncated, false);
    assert.equal(r.text, full);
  });
});
