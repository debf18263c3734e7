// Threat: a branch replaces the skillctl that the git hooks run. The hooks of docs/hooks.md (and
// the pre-commit framework's scripts/pre-commit-hook.sh) run `node_modules/.bin/skillctl` of the
// working tree, which npm makes and .gitignore leaves out, so git overwrites it without a word when
// a branch checked out tracks that path. A branch that force-adds a `node_modules/.bin/skillctl`
// exiting 0, next to a tampered pinned skill, made every later commit and push from that checkout
// (a merge of it, a fix on top) pass the hooks: the tampered skill was committed and pushed, and
// the branch's program ran as the developer. Since the stop of 2026-12-01 the hooks refuse
// (exit 2) when git tracks anything under the top's node_modules/ or the skillctl they found.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { git, installDocHook, pinnedRepo, RUN_JS, sh } from '../helpers/git-pins.js';
import { BIN, ROOT } from '../helpers/paths.js';
import { removeDir } from '../helpers/project.js';
import { SKIP, useHooks } from '../helpers/pre-commit.js';

const repos: string[] = [];
after(async () => {
  for (const r of repos) await removeDir(r);
});

/** A pinned repository with skillctl installed, and a branch `evil` that tampers with the pinned skill and commits its own skillctl, which leaves `marker` when it runs. */
async function hostileBranch(): Promise<{ root: string; marker: string }> {
  const { root } = await pinnedRepo();
  repos.push(root);
  const marker = join(root, '..', `${root.split('/').pop() ?? 'x'}-ran`);
  git(root, ['checkout', '-q', '-b', 'evil']);
  await writeFile(join(root, RUN_JS), 'evil()\n');
  await rm(join(root, 'node_modules'), { recursive: true });
  await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
  await writeFile(join(root, 'node_modules', '.bin', 'skillctl'), `#!/bin/sh\ntouch '${marker}'\nexit 0\n`);
  await chmod(join(root, 'node_modules', '.bin', 'skillctl'), 0o755);
  git(root, ['add', '-f', 'node_modules/.bin/skillctl', RUN_JS]);
  git(root, ['commit', '-q', '--no-verify', '-m', 'the branch']);
  // The developer's checkout: main, with skillctl installed as npm links it (ignored).
  git(root, ['checkout', '-q', 'main']);
  await mkdir(join(root, 'node_modules', '.bin'), { recursive: true });
  await symlink(BIN, join(root, 'node_modules', '.bin', 'skillctl'));
  return { root, marker };
}

describe('the hooks do not run a skillctl the repository holds', () => {
  it('the documented pre-commit and pre-push hooks, after a branch that commits node_modules/.bin/skillctl is merged', async () => {
    const { root, marker } = await hostileBranch();
    await installDocHook(root, 'pre-commit');
    await installDocHook(root, 'pre-push');
    // git overwrites the ignored, npm-made link with the branch's file.
    git(root, ['merge', '-q', '--no-ff', '--no-verify', '-m', 'merge', 'evil']);
    await writeFile(join(root, 'NOTES'), 'x\n');
    git(root, ['add', 'NOTES']);
    const commit = git(root, ['commit', '-q', '-m', 'an unrelated change'], false);
    assert.notEqual(commit.code, 0, 'the commit went through');
    assert.match(commit.stderr, /node_modules/);
    assert.equal(existsSync(marker), false, 'the committed skillctl ran');
    assert.equal(git(root, ['log', '-1', '--format=%s']).stdout.trim(), 'merge');

    const remote = join(root, '..', `${root.split('/').pop() ?? 'x'}-remote.git`);
    repos.push(remote);
    git(root, ['init', '-q', '--bare', remote]);
    const push = git(root, ['push', '-q', remote, 'main'], false);
    assert.notEqual(push.code, 0, 'the push went through');
    assert.equal(existsSync(marker), false, 'the committed skillctl ran');
  });

  it('the pre-commit framework hook, run by pre-commit through git commit', { skip: SKIP }, async () => {
    const { root, marker } = await hostileBranch();
    const env = await useHooks(root, ['skillctl-verify-pins'], repos);
    git(root, ['commit', '-q', '--no-verify', '-m', 'the hooks']);
    assert.equal(sh(root, 'pre-commit', ['install'], { env }).code, 0);
    git(root, ['merge', '-q', '--no-ff', '--no-verify', '-m', 'merge', 'evil']);
    await writeFile(join(root, 'NOTES'), 'x\n');
    git(root, ['add', 'NOTES']);
    const commit = sh(root, 'git', ['commit', '-q', '-m', 'an unrelated change'], { env });
    assert.notEqual(commit.code, 0, 'the commit went through');
    assert.match(commit.stdout + commit.stderr, /node_modules/);
    assert.equal(existsSync(marker), false, 'the committed skillctl ran');
  });

  it('an installed skillctl in a repository that tracks no node_modules still runs', async () => {
    const { root } = await pinnedRepo();
    repos.push(root);
    const r = sh(root, 'sh', [join(ROOT, 'scripts', 'pre-commit-hook.sh'), 'verify-pins']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
