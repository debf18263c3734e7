import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineSplitter, type LineSink } from '../../src/core/line-splitter.js';

/** A sink that writes down what it was given: lines as text, a line past the bound as null. */
function recorder(): { sink: LineSink; got: (string | null)[] } {
  const got: (string | null)[] = [];
  return { got, sink: { line: (b) => got.push(b.toString()), tooLong: () => got.push(null) } };
}

function feed(s: LineSplitter, sink: LineSink, ...pieces: string[]): void {
  for (const p of pieces) s.push(Buffer.from(p), sink);
}

describe('LineSplitter: a byte stream cut into bounded lines', () => {
  it('lines split across pieces and several in one piece; a CR before the newline is dropped, one elsewhere kept', () => {
    const { sink, got } = recorder();
    feed(new LineSplitter(16), sink, 'ab', 'c\nde\r\nf\rg\n\n', 'h');
    assert.deepEqual(got, ['abc', 'de', 'f\rg', '']);
  });

  it('a line of exactly the bound is a line; one byte more is past it, across pieces or in one', () => {
    const { sink, got } = recorder();
    const s = new LineSplitter(4);
    feed(s, sink, 'abcd\n', 'ab', 'cde\n', 'abcde\n');
    assert.deepEqual(got, ['abcd', null, null]);
  });

  it('a line past the bound is reported once, its bytes dropped up to its newline, and the next line read', () => {
    const { sink, got } = recorder();
    const s = new LineSplitter(4);
    feed(s, sink, 'abcdef', 'ghijkl', 'mn\nok\n');
    assert.deepEqual(got, [null, 'ok']);
  });

  it('end gives a last line without a newline, but not the rest of a line past the bound', () => {
    const a = recorder();
    const s = new LineSplitter(8);
    feed(s, a.sink, 'one\ntwo');
    s.end(a.sink);
    assert.deepEqual(a.got, ['one', 'two']);
    const b = recorder();
    const t = new LineSplitter(2);
    feed(t, b.sink, 'toolong');
    t.end(b.sink);
    assert.deepEqual(b.got, [null]);
  });

  it('keeps a copy of a piece it holds: the stream may reuse the memory it delivered', () => {
    const { sink, got } = recorder();
    const s = new LineSplitter(16);
    const piece = Buffer.from('abc');
    s.push(piece, sink);
    piece.fill(0x7a);
    s.push(Buffer.from('\n'), sink);
    assert.deepEqual(got, ['abc']);
  });
});
