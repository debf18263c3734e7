// The grants as bubblewrap is handed them: descriptors opened and checked now, numbered from 6
// after the egress files and the seccomp filter; a grant that became a link is refused, one that is gone left out.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { descriptors, GRANT_FD_BASE, pinGrants } from '../../../src/core/run/grant-pins.js';
import { tempDir } from '../../helpers/tmp.js';

describe('pinGrants', () => {
  const tmp = realpathSync(tempDir('skillctl-grant-pins-'));

  it('numbers each grant there from 6, once, and leaves out one that does not exist', async () => {
    await mkdir(join(tmp, 'a'));
    await writeFile(join(tmp, 'f.txt'), 'x');
    const pins = await pinGrants([join(tmp, 'a'), join(tmp, 'gone'), join(tmp, 'f.txt'), join(tmp, 'a')]);
    assert.ok(!('refused' in pins));
    try {
      assert.deepEqual([...pins.numbers], [[join(tmp, 'a'), GRANT_FD_BASE], [join(tmp, 'f.txt'), GRANT_FD_BASE + 1]]);
      assert.equal(pins.fds.length, 2);
    } finally {
      await pins.release();
    }
  });

  it('refuses a grant that is a link now, or reached through one: POLICY_PATH_CHANGED', async () => {
    await mkdir(join(tmp, 'real', 'sub'), { recursive: true });
    await symlink(join(tmp, 'real'), join(tmp, 'link'));
    const link = await pinGrants([join(tmp, 'link')]);
    assert.ok('refused' in link);
    assert.equal(link.refused.code, 'POLICY_PATH_CHANGED');
    assert.equal(link.refused.message, `${join(tmp, 'link')}, a granted path, has become a symlink since it was checked; the run is refused instead of mounting what it names`);
    const through = await pinGrants([join(tmp, 'link', 'sub')]);
    assert.ok('refused' in through);
    assert.equal(through.refused.message, `${join(tmp, 'link', 'sub')}, a granted path, now leads to ${join(tmp, 'real', 'sub')} since it was checked; the run is refused instead of mounting what it names`);
  });

  it('hands a program the egress files at 3 and 4, the seccomp filter at 5 and the grants from 6, nothing in a gap', () => {
    const ca = Buffer.from('ca');
    const filter = Buffer.from('bpf');
    assert.equal(GRANT_FD_BASE, 6);
    assert.deepEqual(descriptors([10], { numbers: new Map(), fds: [20, 21], release: async () => undefined }), [10, undefined, undefined, 20, 21]);
    assert.deepEqual(descriptors([10], { numbers: new Map(), fds: [20, 21], release: async () => undefined }, filter), [10, undefined, filter, 20, 21]);
    assert.deepEqual(descriptors([10, ca], undefined), [10, ca]);
    assert.deepEqual(descriptors([], undefined, filter), [undefined, undefined, filter]);
    assert.deepEqual(descriptors([], { numbers: new Map(), fds: [], release: async () => undefined }), []);
  });
});
