import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { chmod, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { resolveGrantPath } from '../../../src/core/policy/grant-path.js';
import { tempDir } from '../../helpers/tmp.js';

describe('resolveGrantPath: where a policy path leads, following no link a skill could have made', () => {
  const root = realpathSync(tempDir('skillctl-grant-path-'));
  // Directories the tests treat as nobody's but another user's (the system's, for /lib -> usr/lib).
  const system = join(root, 'system');
  const readOnly = async (dir: string): Promise<boolean> => !(dir === system || dir.startsWith(`${system}/`));

  before(async () => {
    await mkdir(join(root, 'real', 'data'), { recursive: true });
    await mkdir(join(root, 'ws'), { recursive: true });
    await mkdir(system);
    await symlink(join(root, 'real'), join(system, 'abs'));
    await symlink('../real', join(system, 'rel'));
    await symlink(join(root, 'real'), join(root, 'user-link'));
    await symlink(join(root, 'user-link'), join(system, 'to-user-link'));
    await symlink(join(root, 'real'), join(root, 'ws', 'planted'));
    await mkdir(join(root, 'locked'));
    await symlink(join(root, 'real'), join(root, 'locked', 'link'));
    // Its owner took the write bit away after planting the link: it can give it back.
    await chmod(join(root, 'locked'), 0o555);
    await symlink('loop-b', join(system, 'loop-a'));
    await symlink('loop-a', join(system, 'loop-b'));
  });

  it('gives a path without links as it is, and a missing rest appended as written', async () => {
    assert.deepEqual(await resolveGrantPath(join(root, 'real', 'data'), { writeGrants: [] }), { ok: true, real: join(root, 'real', 'data') });
    assert.deepEqual(await resolveGrantPath(join(root, 'real', 'new', 'file.txt'), { writeGrants: [] }), { ok: true, real: join(root, 'real', 'new', 'file.txt') });
  });

  it('follows links, absolute and relative, that lie in directories another user owns and this one cannot write', async () => {
    const opts = { writeGrants: [], canWrite: readOnly };
    assert.deepEqual(await resolveGrantPath(join(system, 'abs', 'data'), opts), { ok: true, real: join(root, 'real', 'data') });
    assert.deepEqual(await resolveGrantPath(join(system, 'rel', 'data'), opts), { ok: true, real: join(root, 'real', 'data') });
    assert.deepEqual(await resolveGrantPath(join(system, 'abs', 'missing'), opts), { ok: true, real: join(root, 'real', 'missing') });
  });

  it('refuses a link in a directory this user owns or can write, naming it and what it holds', async () => {
    assert.deepEqual(await resolveGrantPath(join(root, 'user-link', 'data'), { writeGrants: [] }), { ok: false, kind: 'user-writable', link: join(root, 'user-link'), target: join(root, 'real'), leadsTo: join(root, 'real', 'data') });
  });

  it('refuses a link in a directory this user owns but may not write now', async () => {
    try {
      assert.deepEqual(await resolveGrantPath(join(root, 'locked', 'link', 'data'), { writeGrants: [] }), {
        ok: false,
        kind: 'user-writable',
        link: join(root, 'locked', 'link'),
        target: join(root, 'real'),
        leadsTo: join(root, 'real', 'data'),
      });
    } finally {
      // So that the folder can be removed, by a user other than root too.
      await chmod(join(root, 'locked'), 0o755);
    }
  });

  it("judges the links a followed link's target leads through too", async () => {
    // realpath(3) would have followed system/to-user-link and then user-link without a question.
    assert.deepEqual(await resolveGrantPath(join(system, 'to-user-link', 'data'), { writeGrants: [], canWrite: readOnly }), {
      ok: false,
      kind: 'user-writable',
      link: join(root, 'user-link'),
      target: join(root, 'real'),
      leadsTo: join(root, 'real', 'data'),
    });
  });

  it("refuses a link inside one of this policy's write grants whoever may write its directory", async () => {
    assert.deepEqual(await resolveGrantPath(join(root, 'ws', 'planted', 'data'), { writeGrants: [join(root, 'ws')], canWrite: async () => false }), { ok: false, kind: 'in-write-grant', link: join(root, 'ws', 'planted') });
  });

  it('gives up on a loop of links as the kernel does', async () => {
    const r = await resolveGrantPath(join(system, 'loop-a'), { writeGrants: [], canWrite: readOnly });
    assert.deepEqual(r, { ok: false, kind: 'unresolvable', reason: `${join(system, 'loop-a')}: too many levels of symbolic links` });
  });
});
