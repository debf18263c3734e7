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
    ['\u13daKILL PROFILE=strict version=0.1.0', /identity line/],
    ['\uabaakill profile=strict', /identity line/],
    ['\ua731\u1d0b\u026a\u029f\u029f \u1d18\u0280\u1d0f\ua730\u026a\u029f\u1d07=strict', /identity line/],
    ['\u2045\ua4e0EXT LOOP\u2046', /section header/],
    ['(\u13a2\u13bb\u13ac \u13a2\u13ab \ua4d3\ua4f3 \ua4e2\u13ac\u13e2)', /section header/],
    ['\u1d21arning PACK_BUDGET_CLAMPED: max_chars 5', /finding/],
    ['Z\u0301\u0302\u0303\u0304\u0305algo', /stacks 5 combining marks/],
    ['o\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a\u030b\u030c\u030d\u030e\u030f over the lines', /stacks 16 combining marks/],
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
    'Vi\u1ec7t: e\u0302\u0323 and \u1ec7 are one letter.',
    '\u05d1\u05bc\u05b0\u05e8\u05b5\u05d0\u05e9\u05c1\u05b4\u0596\u05d9\u05ea reads with its points.',
    '\u13e3\u13b3\u13a9 \u13a6\u13ec\u13c2\u13af\u13cd\u13d7 is Cherokee.',
    'Say it \u1d00\u029f\u029f \u1d0f\u0274\u1d04\u1d07, in small capitals.',
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
