// What a contract counts as a word and a sentence: the edge cases docs/formats/contract.md lists.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countWords, keyTerms, markdownIn, sentences, specificWords, words } from '../../../src/core/contracts/index.js';

describe('words', () => {
  const cases: [string, number][] = [
    ['', 0],
    ['   \n\t ', 0],
    ["don't stop", 2],
    ['people’s choice', 2],
    ['move-out clause', 2],
    ['U.S. savers', 2],
    ['e.g. this', 2],
    ['3.5% of 1,000 renters', 4],
    ['$400 fee', 2],
    ['🔥🔥 STOP 🔥', 1],
    ['👩‍💻 coder', 1],
    ['1️⃣ step', 2],
    ['&', 0],
    ['AT&T', 2],
    ['wait...what', 2],
    ['end.Start', 1],
    ['and/or', 2],
    ['snake_case', 2],
    ['保証金が消える', 6],
    ['コンピューター', 1],
    ['보증금이 사라진다', 2],
    ['Stop! Your deposit isn\u2019t already gone 💸', 6],
  ];
  for (const [text, n] of cases) {
    it(`${JSON.stringify(text)} has ${n} word${n === 1 ? '' : 's'}`, () => assert.equal(countWords(text), n, JSON.stringify(words(text))));
  }
  it('keeps decimals, abbreviations and contractions whole', () => {
    assert.deepEqual(words('Dr. Lee’s 2.5% fee costs U.S. savers 1,000 dollars'), ['Dr', 'Lee’s', '2.5', 'fee', 'costs', 'U.S', 'savers', '1,000', 'dollars']);
  });
});

describe('sentences', () => {
  const cases: [string, number][] = [
    ['', 0],
    ['🔥', 0],
    ['No terminator at all', 1],
    ['One. Two.', 2],
    ['Dr. Lee is here.', 1],
    ['It costs 2.5 dollars.', 1],
    ['Visit example.com today.', 1],
    ['I live in the U.S. Then I moved.', 2],
    ['I live in the U.S. and I like it.', 1],
    ['Examples, e.g. Apple and Google, exist.', 1],
    ['Apples, pears etc. Then we left.', 2],
    ['Apples, pears etc. and more.', 1],
    ['J. K. Rowling wrote it.', 1],
    ['No. 5 is next.', 1],
    ['The answer is no. We stop.', 2],
    ['It’s safe… until it isn’t.', 1],
    ['It’s safe... until it isn’t.', 1],
    ['It’s safe... Until it isn’t.', 2],
    ['Wait?! Really?', 2],
    ['He said "stop." Then he left.', 2],
    ['Most people believe X is safe — this video shows why it quietly destroys Y.', 1],
    ['Line one\n\nLine two', 2],
    ['Line one\nline two', 1],
    ['这很危险。你会后悔！', 2],
    ['Stop. 🔥', 1],
    ['Stop! 🔥 Now.', 2],
  ];
  for (const [text, n] of cases) {
    it(`${JSON.stringify(text)} has ${n} sentence${n === 1 ? '' : 's'}`, () => assert.equal(sentences(text).length, n, JSON.stringify(sentences(text))));
  }
  it('returns the sentences trimmed, closing quotes included', () => {
    assert.deepEqual(sentences('He said "stop." Then he left.'), ['He said "stop."', 'Then he left.']);
  });
});

describe('specific words and key terms', () => {
  it('a generic statement has no specific word', () => {
    assert.deepEqual(specificWords('People have many problems with things'), []);
  });
  it('a specific statement keeps its content words', () => {
    assert.deepEqual(specificWords('Renters lose deposits over vague cleaning clauses'), ['Renters', 'lose', 'deposits', 'vague', 'cleaning', 'clauses']);
  });
  it('key terms are stems, without words about the medium or single letters', () => {
    assert.deepEqual(keyTerms('Most people believe X is safe — this video shows why it quietly destroys Y.'), ['believe', 'safe', 'quiet', 'destroy']);
  });
  it('inflections share a stem', () => {
    assert.deepEqual(keyTerms('destroys destroyed destroying'), ['destroy']);
    assert.deepEqual(keyTerms('renters renter'), ['renter']);
    assert.deepEqual(keyTerms('boxes box'), ['box']);
  });
});

describe('markdown', () => {
  const marked: [string, string][] = [
    ['## Intro\ntext', 'a heading'],
    ['```json\n{}\n```', 'a code fence'],
    ['- first\n- second', 'a list item'],
    ['1. first', 'a list item'],
    ['> quoted', 'a block quote'],
    ['| a | b |', 'a table row'],
    ['---', 'a horizontal rule'],
    ['a **bold** claim', 'bold text'],
    ['see [the clause](https://example.com)', 'a link'],
    ['run `rm -rf`', 'inline code'],
    ['line<br>break', 'an HTML tag'],
  ];
  for (const [text, what] of marked) it(`finds ${what} in ${JSON.stringify(text)}`, () => assert.equal(markdownIn(text), what));
  for (const text of ['2 * 3 * 4 = 24', 'C# is fun', 'Rate: 5/10 - meh', 'Clause #9 costs you', 'I <3 cheap rent', 'x < y > z']) {
    it(`finds none in ${JSON.stringify(text)}`, () => assert.equal(markdownIn(text), undefined));
  }
});

describe('hostile text', () => {
  // Payloads come from skills and may be adversarial; every scan here is linear in the text, so
  // these large inputs finish at once (a quadratic scan would take hours on a 4 MiB payload).
  it('many terminators', () => {
    assert.equal(sentences('. '.repeat(200_000)).length, 0);
    assert.equal(sentences('Go. '.repeat(100_000)).length, 100_000);
    assert.equal(sentences('a'.repeat(200_000) + '.' + ' b.'.repeat(100_000)).length, 100_001);
  });
  it('long runs markdown patterns could backtrack on', () => {
    assert.equal(markdownIn('['.repeat(200_000)), undefined);
    assert.equal(markdownIn('x`' + 'y'.repeat(200_000)), undefined);
    assert.equal(markdownIn('<a ' + '<'.repeat(200_000)), undefined);
    assert.equal(markdownIn('|' + 'x'.repeat(200_000)), undefined);
  });
  it('long runs of words and spaces', () => {
    assert.equal(countWords('x '.repeat(200_000)), 200_000);
    assert.equal(countWords('1' + ' '.repeat(200_000) + 'x'), 2);
  });
});
