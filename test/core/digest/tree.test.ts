// The tree digest and path order: the direct serialisation equals the general RFC 8785 one, and
// the allocation-free comparison is UTF-8 byte order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparePaths, jcsDigest, sortTreeFiles, treeDigest, type TreeFile } from '../../../src/core/digest/index.js';

const D = ('sha256:' + '0'.repeat(64)) as TreeFile['digest'];

describe('tree digest', () => {
  it('equals the RFC 8785 digest of {files:[...]} for any paths', () => {
    const paths = ['a.txt', 'dir/b.md', 'Ünïcødé/日本.txt', 'emoji/😀.bin', 'quote"and\\\\back', 'ctl\u0001', 'a b', '\uffff', 'z'];
    const files: TreeFile[] = paths.map((path, i) => ({ path, size: i * 1000, digest: D, mode: i % 2 === 0 ? '0644' : '0755' }));
    const expected = jcsDigest({ files: sortTreeFiles(files).map((f) => ({ path: f.path, size: f.size, digest: f.digest, mode: f.mode })) });
    assert.equal(treeDigest(files), expected);
    assert.equal(treeDigest([...files].reverse()), expected);
  });

  it('refuses a path with an unpaired surrogate, as RFC 8785 does', () => {
    assert.throws(() => treeDigest([{ path: 'bad\ud800', size: 1, digest: D, mode: '0644' }]), { code: 'DIGEST_NOT_CANONICALIZABLE' });
  });

  it('orders paths by their UTF-8 bytes', () => {
    const paths = ['b', 'a', 'a/b', 'a-b', '\uffff', '😀', 'é', 'E', ''];
    const bytes = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...paths].sort(comparePaths), bytes);
  });
});
