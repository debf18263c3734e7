// What the run looks for after a process ends: for each protected path that did not exist, the
// first path that would have to be created on the way to it, so a `.git` planted as a file in a
// project that is not yet a repository is seen although no `.git/config` ever appears.
import assert from 'node:assert/strict';
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { mkdir, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { absentPaths, linksOnTheWay, withoutPlanting } from '../../../src/core/run/planted.js';
import type { Attempt } from '../../../src/core/run/attempt.js';
import { tempDir } from '../../helpers/tmp.js';

describe('absentPaths', () => {
  it('names the first missing path on the way to each absent protected path, once, and nothing that exists', async () => {
    const root = realpathSync(tempDir('skillctl-planted-'));
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await writeFile(join(root, 'repo', '.git', 'config'), '');
    await mkdir(join(root, 'linked'));
    await mkdir(join(root, 'plain'));
    await writeFile(join(root, 'linked', '.git'), 'gitdir: ../elsewhere\n');
    const paths = ['config', 'hooks', 'commondir'].flatMap((n) => ['repo', 'plain', 'linked'].map((d) => join(root, d, '.git', n)));
    assert.deepEqual((await absentPaths([...paths, join(root, 'pins')])).sort(), [
      join(root, 'linked', '.git', 'commondir'),
      join(root, 'linked', '.git', 'config'),
      join(root, 'linked', '.git', 'hooks'),
      join(root, 'pins'),
      join(root, 'plain', '.git'),
      join(root, 'repo', '.git', 'commondir'),
      join(root, 'repo', '.git', 'hooks'),
    ]);
  });

  it('removes what a program planted below its grants, and denies a run whose grants it could not look through afterwards', async () => {
    const root = realpathSync(tempDir('skillctl-planted-below-'));
    const ok: Attempt = { outcome: { kind: 'output', value: 1 }, stdoutTruncated: false, stderrTruncated: false };
    await mkdir(join(root, 'web', '.claude'), { recursive: true });
    const planted = await withoutPlanting([], () => Promise.resolve(ok), () => ({ paths: [join(root, 'web', '.claude')], whole: true }));
    assert.deepEqual(planted.outcome.kind === 'failed' ? [planted.outcome.status, planted.outcome.diagnostics.map((d) => d.code)] : planted.outcome, ['denied', ['POLICY_PATH_PROTECTED']]);
    assert.equal(existsSync(join(root, 'web', '.claude')), false);
    const unseen = await withoutPlanting([], () => Promise.resolve(ok), () => ({ paths: [], whole: false }));
    assert.deepEqual(unseen.outcome.kind === 'failed' ? [unseen.outcome.status, unseen.outcome.diagnostics.map((d) => d.code)] : unseen.outcome, ['denied', ['RUN_GRANT_UNWALKED']]);
    assert.equal(await withoutPlanting([], () => Promise.resolve(ok), () => ({ paths: [], whole: true })), ok);
  });

  it("takes a write lock another run's append holds for a moment for what it is, and removes one that stays", async () => {
    const root = realpathSync(tempDir('skillctl-planted-lock-'));
    const ok: Attempt = { outcome: { kind: 'output', value: 1 }, stdoutTruncated: false, stderrTruncated: false };
    const lock = join(root, '.audit.jsonl.lck');
    // Removed as planted, a lock another writer holds would let a third append beside it: the chain forks.
    const passing = await withoutPlanting([lock], async () => {
      await writeFile(lock, '{"pid":1,"hostname":"h","token":"t"}\n');
      setTimeout(() => void unlink(lock), 100);
      return ok;
    });
    assert.equal(passing, ok);
    const staying = await withoutPlanting([lock], async () => {
      await writeFile(lock, '{"pid":1,"hostname":"h","token":"t"}\n');
      return ok;
    });
    assert.deepEqual(staying.outcome.kind === 'failed' ? staying.outcome.diagnostics.map((d) => d.code) : staying.outcome, ['POLICY_PATH_PROTECTED']);
    assert.equal(existsSync(lock), false);
  });

  it('notes the links on the way to a protected path inside a write grant, and puts back one a program removed or replaced', async () => {
    const root = realpathSync(tempDir('skillctl-planted-links-'));
    const ok: Attempt = { outcome: { kind: 'output', value: 1 }, stdoutTruncated: false, stderrTruncated: false };
    await mkdir(join(root, 'ws', 'real-git'), { recursive: true });
    await writeFile(join(root, 'ws', 'npmrc'), '');
    await symlink('npmrc', join(root, 'ws', '.npmrc'));
    await symlink('real-git', join(root, 'ws', '.git'));
    await symlink('npmrc', join(root, 'outside-link'));
    const paths = [join(root, 'ws', '.npmrc'), join(root, 'ws', '.git', 'hooks'), join(root, 'ws', '.git', 'config'), join(root, 'outside-link')];
    const links = await linksOnTheWay(paths, [join(root, 'ws')]);
    assert.deepEqual(
      [...links].map(([link, held]) => [link, held.target]),
      [
        [join(root, 'ws', '.npmrc'), 'npmrc'],
        [join(root, 'ws', '.git'), 'real-git'],
      ],
    );
    assert.equal(await withoutPlanting([], () => Promise.resolve(ok), undefined, links), ok);
    const replaced = await withoutPlanting(
      [],
      async () => {
        await rename(join(root, 'ws', '.git'), join(root, 'ws', 'aside'));
        await mkdir(join(root, 'ws', '.git'));
        await unlink(join(root, 'ws', '.npmrc'));
        return ok;
      },
      undefined,
      links,
    );
    assert.deepEqual(replaced.outcome.kind === 'failed' ? [replaced.outcome.status, replaced.outcome.diagnostics.map((d) => d.code)] : replaced.outcome, ['denied', ['POLICY_PATH_PROTECTED']]);
    assert.equal(readlinkSync(join(root, 'ws', '.git')), 'real-git');
    assert.equal(readlinkSync(join(root, 'ws', '.npmrc')), 'npmrc');
  });

  it('does not write through a directory renamed aside and replaced with a link since: the link counts as removed', async () => {
    const root = realpathSync(tempDir('skillctl-planted-parent-'));
    const ok: Attempt = { outcome: { kind: 'output', value: 1 }, stdoutTruncated: false, stderrTruncated: false };
    await mkdir(join(root, 'ws', 'pkg'), { recursive: true });
    await mkdir(join(root, 'victim', '.git'), { recursive: true });
    await symlink('/elsewhere/npmrc', join(root, 'ws', 'pkg', '.git'));
    const links = await linksOnTheWay([join(root, 'ws', 'pkg', '.git', 'config')], [join(root, 'ws')]);
    const swapped = await withoutPlanting(
      [],
      async () => {
        await rename(join(root, 'ws', 'pkg'), join(root, 'ws', 'aside'));
        await symlink(join(root, 'victim'), join(root, 'ws', 'pkg'));
        return ok;
      },
      undefined,
      links,
    );
    assert.deepEqual(swapped.outcome.kind === 'failed' ? [swapped.outcome.status, swapped.outcome.diagnostics.map((d) => d.code)] : swapped.outcome, ['denied', ['POLICY_PATH_PROTECTED']]);
    assert.equal(existsSync(join(root, 'victim', '.git')), true, "the victim's repository is left alone");
  });
});
