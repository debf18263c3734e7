// Every terminal control character but newline and tab is written out as a JSON-style escape;
// ordinary text, Unicode included, is left as it is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { visible } from '../../src/core/visible.js';

describe('visible', () => {
  it('leaves text without control characters as it is', () => {
    for (const s of ['', 'plain', 'a\nb\tc', 'C:\\path\\u001b', 'naïve ✔ → 日本 😀', '\u00a0\u00ff']) assert.equal(visible(s), s);
  });

  it('writes out ESC, BEL, CR, backspace and DEL', () => {
    assert.equal(visible('\u001b]0;PWNED\u0007err'), '\\u001b]0;PWNED\\u0007err');
    assert.equal(visible('ok\r\u001b[2K\b\u007f'), 'ok\\u000d\\u001b[2K\\u0008\\u007f');
    assert.equal(visible('\u001b]52;c;aGk=\u0007'), '\\u001b]52;c;aGk=\\u0007');
  });

  it('writes out the C1 range, the 8-bit CSI among it', () => {
    assert.equal(visible('\u009b2J\u0080\u009f'), '\\u009b2J\\u0080\\u009f');
  });

  it('leaves no control character but newline and tab, whichever code point', () => {
    let all = '';
    for (let c = 0; c < 0x100; c++) all += String.fromCharCode(c);
    const out = visible(all);
    assert.ok(![...out].some((c) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(c)));
    assert.ok(out.includes('\n') && out.includes('\t'));
  });

  it('writes out the marks that reorder or hide text (bidi overrides and isolates, zero-width); leaves right-to-left text as it is', () => {
    assert.equal(visible('invoice\u202etxt.exe'), 'invoice\\u202etxt.exe');
    assert.equal(visible('\u2066a\u2069\u200bb\u200e\u200f\u061c\u2060\ufeff'), '\\u2066a\\u2069\\u200bb\\u200e\\u200f\\u061c\\u2060\\ufeff');
    for (const s of ['שלום עולם', 'مرحبا بالعالم']) assert.equal(visible(s), s);
  });

  it('gives the same text whether a stream is escaped whole or in chunks split mid-sequence', () => {
    const s = 'a\u001b]52;c;eA==\u0007b\r\u009b1A';
    for (let i = 0; i <= s.length; i++) assert.equal(visible(s.slice(0, i)) + visible(s.slice(i)), visible(s));
  });
});
