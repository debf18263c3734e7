// The budget contract, checked exhaustively: for every pack (the built-in ones and operator packs
// with multi-byte and astral text) and every budget from 0 to the full length + 10.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BUILTIN_PACKS,
  BUILTIN_PROFILES,
  checkPack,
  clampBudget,
  codePoints,
  fitLines,
  identityLine,
  NEXT_LOOP_SECTION,
  packLines,
  PACK_MAX_CHARS,
  PACK_MIN_CHARS,
  renderPack,
  renderPackText,
  type Pack,
} from '../../../src/core/behaviour-packs/index.js';
import { operatorPacks, packData } from '../../helpers/packs.js';

/** The [NEXT LOOP] section as rendered: header and lines. */
function nextLoop(pack: Pack): string {
  const s = pack.sections.find((x) => x.name === NEXT_LOOP_SECTION);
  assert.ok(s !== undefined, pack.profile);
  return [`[${s.name}]`, ...s.lines].join('\n');
}

/**
 * A reference for the cut, built from the sections without the renderer: the identity line and
 * the next loop, the first `k` other lines, and a line `...` for each run of lines left out.
 * `undefined` when the k-th kept line would be a bare section header (never a valid cut).
 */
function cutAt(pack: Pack, k: number): string | undefined {
  const out: string[] = [];
  let seen = 0;
  let gap = false;
  let lastOptional = '';
  const emit = (text: string, pinned: boolean): void => {
    if (!pinned && seen++ >= k) {
      gap = true;
      return;
    }
    if (!pinned) lastOptional = text;
    if (gap) out.push('...');
    gap = false;
    out.push(text);
  };
  emit(identityLine(pack), true);
  for (const s of pack.sections) {
    const pinned = s.name === NEXT_LOOP_SECTION;
    emit(`[${s.name}]`, pinned);
    for (const l of s.lines) emit(l, pinned);
  }
  if (gap) out.push('...');
  return k > 0 && lastOptional.startsWith('[') ? undefined : out.join('\n');
}

/** A pack with what every budget is checked against, computed once. */
interface Reference {
  readonly pack: Pack;
  readonly full: string;
  readonly fullSize: number;
  readonly loop: string;
  /** Every reference cut and its size, by the number of other lines kept. */
  readonly cuts: readonly (string | undefined)[];
  readonly cutSizes: readonly number[];
}

function referenceOf(pack: Pack): Reference {
  const loop = nextLoop(pack);
  const optional = packLines(pack).length - 1 - loop.split('\n').length;
  const cuts = Array.from({ length: optional }, (_, k) => cutAt(pack, k));
  const full = packLines(pack).join('\n');
  return { pack, full, fullSize: codePoints(full), loop, cuts, cutSizes: cuts.map((c) => (c === undefined ? Infinity : codePoints(c))) };
}

function checkInvariants({ pack, full, fullSize, loop, cuts, cutSizes }: Reference, budget: number): void {
  const r = renderPackText(pack, budget);
  const effective = Math.min(PACK_MAX_CHARS, Math.max(PACK_MIN_CHARS, budget));
  const where = `${pack.profile} at ${budget}`;
  assert.equal(r.max_chars, effective, where);
  assert.equal(r.clamped, effective !== budget, where);
  assert.equal(r.max_chars_requested, budget, where);
  assert.ok(codePoints(r.text) <= effective, `${where}: ${codePoints(r.text)} > ${effective}`);
  assert.ok(r.text.startsWith(`${identityLine(pack)}\n`), `${where}: the identity line comes first, whole`);
  assert.ok(r.text.includes(`\n${loop}\n`) || r.text.endsWith(`\n${loop}`), `${where}: the next loop is whole`);
  if (fullSize <= effective) {
    assert.equal(r.truncated, false, where);
    assert.equal(r.text, full, where);
    return;
  }
  assert.equal(r.truncated, true, where);
  // The cut is the reference cut of some k, and no longer run of other lines would have fitted.
  const k = cuts.indexOf(r.text);
  assert.ok(k >= 0, `${where}: not a cut at line boundaries:\n${r.text}`);
  for (let more = k + 1; more < cuts.length; more++) {
    assert.ok((cutSizes[more] as number) > effective, `${where}: keeping ${more} lines instead of ${k} would have fitted`);
  }
}

describe('budget truncation', () => {
  it('holds every invariant for every pack and every budget 0..full+10', async () => {
    const packs = [...BUILTIN_PACKS, ...(await operatorPacks())];
    assert.ok(packs.length >= 6);
    let checked = 0;
    for (const pack of packs) {
      const size = codePoints(packLines(pack).join('\n'));
      const reference = referenceOf(pack);
      for (let budget = 0; budget <= size + 10; budget++) {
        checkInvariants(reference, budget);
        checked++;
      }
    }
    assert.ok(checked > 6000);
  });

  it('every built-in profile, at every budget: identity first, the whole next loop, within budget, the same bytes twice', () => {
    for (const profile of BUILTIN_PROFILES) {
      const pack = BUILTIN_PACKS.find((p) => p.profile === profile) as Pack;
      const size = codePoints(packLines(pack).join('\n'));
      const loop = nextLoop(pack);
      for (let budget = 0; budget <= size; budget++) {
        const where = `${profile} at ${budget}`;
        const a = renderPack(profile, budget);
        const b = renderPack(profile, budget);
        const text = a.value?.text ?? '';
        assert.ok(Buffer.from(text).equals(Buffer.from(b.value?.text ?? '')), `${where}: deterministic`);
        assert.deepEqual(a, b, where);
        assert.ok(text.startsWith(`${identityLine(pack)}\n`), where);
        assert.ok(text.includes(`\n${loop}\n`) || text.endsWith(`\n${loop}`), `${where}: the next loop is whole`);
        assert.ok(codePoints(text) <= Math.max(budget, PACK_MIN_CHARS), where);
        assert.deepEqual(
          a.diagnostics.map((d) => d.code),
          budget < PACK_MIN_CHARS ? ['PACK_BUDGET_CLAMPED'] : [],
          where,
        );
      }
    }
  });

  it('cuts from the middle: identity, the start of the pack, ..., the next loop, ... (what followed)', () => {
    for (const pack of BUILTIN_PACKS) {
      const lines = renderPackText(pack, PACK_MIN_CHARS).text.split('\n');
      const loop = nextLoop(pack).split('\n');
      const at = lines.indexOf(loop[0] as string);
      assert.equal(lines[at - 1], '...', pack.profile);
      assert.deepEqual(lines.slice(at, at + loop.length), loop);
      assert.deepEqual(lines.slice(at + loop.length), ['...'], pack.profile);
    }
  });

  it('more budget never gives fewer lines', () => {
    for (const pack of BUILTIN_PACKS) {
      let prev = 0;
      const size = codePoints(packLines(pack).join('\n'));
      for (let budget = 0; budget <= size + 10; budget++) {
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
    assert.deepEqual(clampBudget(PACK_MIN_CHARS - 1), { max_chars: PACK_MIN_CHARS, clamped: true });
    assert.deepEqual(clampBudget(PACK_MIN_CHARS), { max_chars: PACK_MIN_CHARS, clamped: false });
    assert.deepEqual(clampBudget(1e20), { max_chars: PACK_MAX_CHARS, clamped: true });
    assert.deepEqual(clampBudget(undefined), { max_chars: PACK_MAX_CHARS, clamped: false });
  });

  it('the minimum holds a next loop of the size the rule allows, with the longest identity line', () => {
    const withLoop = (chars: number): Record<string, unknown> => {
      const data = packData('p'.repeat(32));
      const sections = (data.sections as { name: string; lines: string[] }[]).map((s) =>
        // Lines are at most 240 characters: two of 200 and the rest, joined by line breaks.
        s.name === NEXT_LOOP_SECTION ? { name: s.name, lines: ['x'.repeat(200), 'y'.repeat(200), 'z'.repeat(chars - 402)] } : s,
      );
      return { ...data, skill_pack_version: `0.0.0-${'x'.repeat(26)}`, sections };
    };
    // identity (87) + "\n...\n" + "[NEXT LOOP]\n" + the lines + "\n..." is exactly the minimum.
    const fits = PACK_MIN_CHARS - 87 - 5 - 12 - 4;
    const ok = checkPack(withLoop(fits));
    assert.deepEqual(ok.diagnostics, []);
    assert.equal(codePoints(renderPackText(ok.value as Pack, 0).text), PACK_MIN_CHARS);
    assert.deepEqual(
      checkPack(withLoop(fits + 1)).diagnostics.map((d) => [d.code, d.pointer]),
      [['PACK_TOO_LARGE', '/sections/1']],
    );
  });

  it('keeps a section header only together with at least one of its lines, and the pinned lines always', () => {
    const line = (text: string, pinned = false): { text: string; pinned: boolean } => ({ text, pinned });
    const lines = [line('id', true), line('[A]'), line('a1'), line('[N]', true), line('n1', true), line('[B]'), line('b1')];
    assert.equal(fitLines(lines, 0).text, 'id\n...\n[N]\nn1\n...');
    assert.equal(fitLines(lines, 19).text, 'id\n...\n[N]\nn1\n...');
    assert.equal(fitLines(lines, 20).text, 'id\n[A]\na1\n[N]\nn1\n...');
    assert.equal(fitLines(lines, 22).text, 'id\n[A]\na1\n[N]\nn1\n...');
    assert.deepEqual(fitLines(lines, 23), { text: 'id\n[A]\na1\n[N]\nn1\n[B]\nb1', truncated: false });
  });

  it('tries every run length: closing the cut in front of the next loop can make a longer run shorter', () => {
    const line = (text: string, pinned = false): { text: string; pinned: boolean } => ({ text, pinned });
    const lines = [line('id', true), line('[A]'), line('a1'), line('x'), line('[N]', true), line('n1', true), line('[B]'), line('b1')];
    // Keeping [A] a1 takes 24 characters; keeping [A] a1 x takes 22, with one mark fewer.
    assert.equal(fitLines(lines, 21).text, 'id\n...\n[N]\nn1\n...');
    assert.equal(fitLines(lines, 22).text, 'id\n[A]\na1\nx\n[N]\nn1\n...');
    assert.equal(fitLines(lines, 24).text, 'id\n[A]\na1\nx\n[N]\nn1\n...');
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
