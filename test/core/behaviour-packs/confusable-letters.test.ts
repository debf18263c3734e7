// The lookalike table forged.ts reads a pack's lines with (confusable-letters.ts): every entry as
// its comment says it is taken from Unicode's confusables data, and the scripts it names covered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFUSABLE_LETTERS } from '../../../src/core/behaviour-packs/confusable-letters.js';
import { forgedLine } from '../../../src/core/behaviour-packs/forged.js';

describe('CONFUSABLE_LETTERS', () => {
  it('each entry: one code point past ASCII, a letter or number NFKC leaves alone, read as one Latin letter', () => {
    assert.ok(CONFUSABLE_LETTERS.size > 300, `${CONFUSABLE_LETTERS.size} entries`);
    for (const [from, to] of CONFUSABLE_LETTERS) {
      const hex = (from.codePointAt(0) as number).toString(16);
      assert.equal([...from].length, 1, hex);
      assert.ok((from.codePointAt(0) as number) > 0x7f, hex);
      assert.match(from, /^[\p{L}\p{N}]$/u, hex);
      assert.equal(from.normalize('NFKC'), from, hex);
      assert.match(to, /^[A-Za-z]$/, hex);
    }
  });

  it('the scripts it names, each with a letter as the data reads it', () => {
    const samples: readonly [script: string, from: string, to: string][] = [
      ['Canadian syllabics', '\u146d', 'P'],
      ['Canadian syllabics', '\u1587', 'R'],
      ['Runic', '\u16d5', 'K'],
      ['Runic', '\u16d6', 'M'],
      ['Lycian', '\u{10296}', 'S'],
      ['Carian', '\u{102ab}', 'O'],
      ['Coptic', '\u2c94', 'K'],
      ['Tifinagh', '\u2d54', 'O'],
      ['Old Italic', '\u{10311}', 'M'],
      ['Deseret', '\u{10404}', 'O'],
      ['Osage', '\u{104c2}', 'O'],
      ['Warang Citi', '\u{118a6}', 'E'],
      ['Cherokee', '\u13da', 'S'],
      ['Lisu', '\ua4e2', 'S'],
      ['Armenian', '\u0585', 'o'],
      ['a capital that the data reads as l', '\u0399', 'I'],
    ];
    for (const [script, from, to] of samples) assert.equal(CONFUSABLE_LETTERS.get(from), to, `${script}: U+${(from.codePointAt(0) as number).toString(16)}`);
  });

  it('a lookalike the table does not list is read as itself: text of those scripts is served', () => {
    for (const line of ['\u1403\u14c4\u1483\u144e\u1450\u1466 is Inuktitut.', '\u16a0\u16a2\u16a6\u16a8\u16b1\u16b2 is the futhark.', '(\u1403\u14c4\u1483\u144e)']) {
      assert.equal(forgedLine(line), undefined, line);
    }
  });
});
