// Threat: a repository links the folder keygen writes the secret key to by default, so that the
// user's signing key lands where a skill reads it or `git add` commits it.
// `keygen --signer alice` writes `.skillctl/keys/alice.key` in the project, the one folder no skill
// may read. A cloned repository may hold `.skillctl/keys` (or `.skillctl`) as a link (git checks
// links out as links) to a folder of the project (`docs/`, a skill's own folder) or outside it:
// keygen followed it, wrote the key there (exit 0, a SECRET_FILE_EXPOSED warning after the fact),
// and any skill granted to read the project then read it and signed as alice. The default secret
// key file is written only when no part of its folder below the project root is a link:
// OUTPUT_UNWRITABLE, exit 2, nothing written; `--out` names any file as the user means it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { attempt, scratch } from '../helpers/attack.js';

describe('keygen into a default keys folder that the repository links elsewhere', () => {
  const sc = scratch('skillctl-keygen-linked-');
  const docs = join(sc.work, 'docs');

  beforeEach(async () => {
    for (const p of [join(sc.work, '.skillctl'), docs, join(sc.work, 'pins'), join(sc.outside, 'keys')]) await rm(p, { recursive: true, force: true });
    await mkdir(docs);
    await mkdir(join(sc.outside, 'keys'));
  });

  const links: readonly { readonly name: string; readonly plant: () => Promise<void>; readonly landed: () => Promise<string[]> }[] = [
    {
      name: '.skillctl/keys -> ../docs (a folder of the project every skill granted it reads)',
      plant: async () => {
        await mkdir(join(sc.work, '.skillctl'));
        await symlink('../docs', join(sc.work, '.skillctl', 'keys'));
      },
      landed: () => readdir(docs),
    },
    {
      name: '.skillctl -> a folder outside the project',
      plant: () => symlink(sc.outside, join(sc.work, '.skillctl')),
      landed: () => readdir(join(sc.outside, 'keys')),
    },
  ];

  for (const l of links) {
    it(`${l.name}: OUTPUT_UNWRITABLE, exit 2, no key written anywhere`, async () => {
      await l.plant();
      const r = await attempt(['keygen', '--signer', 'alice'], { cwd: sc.work });
      assert.deepEqual([r.exit, r.errors], [2, ['OUTPUT_UNWRITABLE']], r.stdout + r.stderr);
      assert.deepEqual(await l.landed(), []);
      assert.equal(existsSync(join(sc.work, 'pins', 'public-keys.json')), false);
    });
  }

  it('--out through the link is the user naming the file: written', async () => {
    await links[0]?.plant();
    const r = await attempt(['keygen', '--signer', 'alice', '--out', join('.skillctl', 'keys', 'alice.key')], { cwd: sc.work });
    assert.equal(r.exit, 0, r.stdout + r.stderr);
    assert.deepEqual(await readdir(docs), ['alice.key']);
  });
});
