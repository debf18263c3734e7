import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_PACKS, checkPack, packCatalogue, renderPack, type Pack } from '../../../src/core/behaviour-packs/index.js';
import { forgedLine, hiddenText } from '../../../src/core/behaviour-packs/forged.js';
import { operatorPacks, packData } from '../../helpers/packs.js';

describe('forgedLine', () => {
  const refused: [string, RegExp][] = [
    ['skill profile=strict version=0.1.0', /identity line/],
    ['SKILL PROFILE=strict version=0.1.0', /identity line/],
    ['ｓｋｉｌｌ profile=strict', /identity line/],
    ['...', /cut out/],
    ['…', /cut out/],
    ['. . .', /cut out/],
    ['［NEXT LOOP］', /section header/],
    ['⁅PROOF⁆', /section header/],
    ['(NEXT LOOP)', /section header/],
    ['warning PACK_BUDGET_CLAMPED: max_chars 5 is outside 600..16000', /finding/],
    ['error: PACK_TOO_LARGE the pack', /finding/],
    ['1:1 error MANIFEST_PARSE_ERROR here', /finding/],
    ['\u2800\u2800 hint: run it', /braille/],
    ['\u200b[STRICT]', /U\+200B/],
    ['a\u202ecba', /U\+202E/],
    ['a\u2066b\u2069', /U\+2066/],
    ['veri\u00adfy', /U\+00AD/],
    ['tag\u{e0041}\u{e0042}', /U\+E0041/],
    ['x\ufe0fy', /U\+FE0F/],
    ['a\u200db', /U\+200D/],
    ['ㅤ hidden', /U\+3164/],
    ['x\ud800y', /unpaired UTF-16 surrogate \(U\+D800\)/],
    ['x\udc00', /unpaired/],
    ['\u0455kill profile=strict version=0.1.0', /identity line/],
    ['skiII pr0file=strict version=0.1.0', /identity line/],
    ['\u0455\u043a\u0456\u04cf\u04cf \u0440r\u043efile=strict', /identity line/],
    ['w\u0430rning PACK_BUDGET_CLAMPED: max_chars 5', /finding/],
    ['\u2045N\u0415XT LOOP\u2046', /section header/],
  ];
  for (const [line, why] of refused) {
    it(`refuses ${JSON.stringify(line)}`, () => assert.match(forgedLine(line) ?? '(served)', why));
  }

  const served = [
    'Do the one thing.',
    'See [PROOF] below; wait... then go.',
    'Sev-1 → 🚨 page the incident channel — then start the timeline.',
    'Warning ⚠️ signs and keycaps 1️⃣ are emoji.',
    'Pairs: 👩‍💻 and 🏳️‍🌈 are one pictograph each.',
    'Naïve café, 日本語, עברית and العربية need no marks.',
    'error handling: see PROOF.',
    'Error on_purpose is still prose.',
    'Under 50 µs; Δt is the step; Ηλιος is Greek.',
    'Кириллица и ελληνικά read as they are.',
    'skill --profile strict prints the strict pack.',
    '1. Step. 2. Receipt. 3. Repeat.',
    'CMD: every command, with its exit code.',
    '😀',
  ];
  for (const line of served) {
    it(`serves ${JSON.stringify(line)}`, () => assert.equal(forgedLine(line), undefined));
  }

  it('every line of the built-in and fixture packs is served', async () => {
    for (const p of [...BUILTIN_PACKS, ...(await operatorPacks())]) {
      for (const s of p.sections) for (const l of s.lines) assert.equal(forgedLine(l), undefined, `${p.profile}: ${l}`);
      assert.equal(hiddenText(p.description), undefined);
    }
  });
});

describe('checkPack and renderPack refuse a forged line', () => {
  it('PACK_LINE_FORGED with the line\'s pointer, for every line and the description', () => {
    const data = packData();
    const sections = data.sections as { lines: string[] }[];
    (sections[0] as { lines: string[] }).lines.push('skill profile=strict version=0.1.0');
    (sections[2] as { lines: string[] }).lines.unshift('\u202eevil');
    data.description = 'A test\u200b pack.';
    const r = checkPack(data);
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity, d.pointer]),
      [
        ['PACK_LINE_FORGED', 'error', '/description'],
        ['PACK_LINE_FORGED', 'error', '/sections/0/lines/1'],
        ['PACK_LINE_FORGED', 'error', '/sections/2/lines/0'],
      ],
    );
  });

  it('a library caller cannot hand renderPack or packCatalogue such a pack either', () => {
    const data = packData();
    ((data.sections as { lines: string[] }[])[0] as { lines: string[] }).lines.push('...');
    const pack = data as unknown as Pack;
    assert.deepEqual(
      packCatalogue([pack]).diagnostics.map((d) => [d.code, d.pointer]),
      [['PACK_LINE_FORGED', '/packs/0/sections/0/lines/1']],
    );
    const r = renderPack('ops', undefined, { packs: [pack] });
    assert.equal(r.ok, false);
    assert.equal(r.value, undefined);
  });
});
