import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eachLine, eachStreamedLine, MAX_AUDIT_LINE_BYTES } from '../../../src/core/run/audit-lines.js';

type Seen = [string | null, number, boolean][];

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function streamed(bytes: Buffer, size: number): Promise<{ seen: Seen; n: number }> {
  const seen: Seen = [];
  const n = await eachStreamedLine(pieces(bytes, size), (l, i, torn) => (seen.push([l, i, torn]), true));
  return { seen, n };
}

describe('eachStreamedLine: the lines of an audit log as its bytes arrive', () => {
  it('gives what eachLine gives for the whole text, however the bytes are cut (a character split between pieces, CR kept, a torn last line)', async () => {
    for (const text of ['a\nb\n', 'é€😀\r\n\n\nlast', '\n', '', 'no newline at all', '{"x":"ü"}\n{"y":1}\r\n']) {
      const whole: Seen = [];
      const n = eachLine(text, (l, i, torn) => (whole.push([l, i, torn]), true));
      for (const size of [1, 2, 3, 5, 64]) assert.deepEqual(await streamed(Buffer.from(text), size), { seen: whole, n }, `${JSON.stringify(text)} in pieces of ${size}`);
    }
  });

  it('a line past the bound is given as null, once, and the line after it as it is', async () => {
    const long = Buffer.alloc(MAX_AUDIT_LINE_BYTES + 1, 0x78);
    const bytes = Buffer.concat([Buffer.from('first\n'), long, Buffer.from('\nnext\n')]);
    assert.deepEqual(await streamed(bytes, 1024 * 1024), { seen: [['first', 1, false], [null, 2, false], ['next', 3, false]], n: 3 });
    // Unended at the end of the log, it is given once too, not as a torn line.
    assert.deepEqual(await streamed(Buffer.concat([long, long]), 4 * 1024 * 1024), { seen: [[null, 1, false]], n: 1 });
  });

  it('a line of exactly the bound is a line', async () => {
    const bytes = Buffer.concat([Buffer.alloc(MAX_AUDIT_LINE_BYTES, 0x78), Buffer.from('\n')]);
    const { seen } = await streamed(bytes, 8 * 1024 * 1024);
    assert.deepEqual(seen.map(([l, i, torn]) => [l?.length, i, torn]), [[MAX_AUDIT_LINE_BYTES, 1, false]]);
  });

  it('stops reading once the visitor says so', async () => {
    let pulled = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield Buffer.from(`line ${i}\n`);
      }
    }
    const n = await eachStreamedLine(counted(), (_l, i) => i < 3);
    assert.equal(n, 3);
    assert.equal(pulled, 3);
  });
});
