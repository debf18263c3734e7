// The tar format both ways: the ustar/pax headers pack writes, read back by the strict parser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileHeader, parseHeader, splitUstarPath } from '../../../src/core/archive/index.js';
import { archiveSourceFromBytes } from '../../../src/core/bundle/index.js';
import { buildArchive } from '../../../src/core/pack/index.js';

describe('tar headers', () => {
  it('splits a long path into ustar prefix and name as GNU tar does', () => {
    const p = Buffer.from(`${'d'.repeat(60)}/${'e'.repeat(60)}/file.txt`);
    const split = splitUstarPath(p);
    assert.equal(split?.prefix.toString(), `${'d'.repeat(60)}/${'e'.repeat(60)}`);
    assert.equal(split?.name.toString(), 'file.txt');
    assert.equal(splitUstarPath(Buffer.from('x'.repeat(101))), undefined);
  });

  it('writes a pax header for a path no ustar split can hold, and reads it back', async () => {
    const long = `${'a'.repeat(150)}/${'b'.repeat(120)}.txt`;
    const h = fileHeader(long, 3, '0644');
    assert.equal(h.length % 512, 0);
    const first = parseHeader(h.subarray(0, 512));
    assert.ok('header' in first && first.header.type === 'x');
    const { bytes } = await buildArchive([{ path: long, size: 3, mode: '0644' }], () => Promise.resolve(Buffer.from('abc')));
    const src = await archiveSourceFromBytes(bytes, 'long.tgz');
    assert.deepEqual((await src.list()).files.map((f) => f.path), [long]);
  });
});
