// Threat: a pull request's CI compares the lock with a base the pull request chose. The job
// hooks.md shows runs `verify-pins --rev HEAD --base origin/<base>` after a checkout with
// `fetch-depth: 0`, which fetches every tag of the repository as `refs/tags/*`. git looks a short
// name up as `refs/<name>`, then `refs/tags/<name>`, then `refs/heads/<name>`, then
// `refs/remotes/<name>`: a tag named `origin/main` outranks the remote-tracking branch, with a
// warning that `rev-parse --verify --quiet` does not print. Anyone who may push a tag (a
// contributor kept off `main` by branch protection) could point `origin/main` at the pull
// request's own commit, and `--base` compared the change's lock with itself: a tampered skill,
// re-pinned at its version under a key the change added, passed the required check. Since the
// stop of 2026-12-01 a revision whose name matches more than one ref is refused (exit 2,
// GIT_TREE_UNREADABLE, naming the refs), for `--base` and `--rev` alike.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { errorCodes, git, pinnedRepo, selfVouching, SELF_VOUCHED, skillctlIn } from '../helpers/git-pins.js';
import { removeDir } from '../helpers/project.js';

const repos: string[] = [];
after(async () => {
  for (const r of repos) await removeDir(r);
});

/** A pinned repository whose `origin/main` is the base, and a pull request that vouches for itself, checked out. */
async function pullRequest(): Promise<{ root: string; base: string; head: string }> {
  const { root, base } = await pinnedRepo();
  repos.push(root);
  // As actions/checkout leaves it: the base branch as a remote-tracking ref.
  git(root, ['update-ref', 'refs/remotes/origin/main', base]);
  git(root, ['checkout', '-q', '-b', 'pr']);
  await selfVouching(root);
  return { root, base, head: git(root, ['rev-parse', 'HEAD']).stdout.trim() };
}

describe('verify-pins --base and --rev with a name that matches more than one ref', () => {
  it('a tag named origin/main, pointing at the pull request, is not taken for the base', async () => {
    const { root, base, head } = await pullRequest();
    // Without the tag, the base refuses the change.
    const honest = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', 'origin/main']);
    assert.equal(honest.code, 1, honest.stdout + honest.stderr);
    assert.deepEqual(errorCodes(honest.stdout), SELF_VOUCHED);

    git(root, ['tag', 'origin/main', head]);
    // git itself takes the tag: the comparison would be of the change with itself.
    assert.equal(git(root, ['rev-parse', '--verify', '--quiet', 'origin/main^{commit}']).stdout.trim(), head);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', 'origin/main', '--json']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    assert.equal(error.code, 'GIT_TREE_UNREADABLE');
    assert.match(error.message, /origin\/main names refs\/tags\/origin\/main and refs\/remotes\/origin\/main/);
    // The full name still says which one is meant.
    const full = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', 'refs/remotes/origin/main']);
    assert.equal(full.code, 1, full.stdout + full.stderr);
    assert.deepEqual(errorCodes(full.stdout), SELF_VOUCHED);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', base]).code, 1);
    // A tag named like the base's short commit id outranks the commit.
    const short = base.slice(0, 9);
    git(root, ['tag', short, head]);
    const abbreviated = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', short]);
    assert.equal(abbreviated.code, 2, abbreviated.stdout + abbreviated.stderr);
    assert.match(abbreviated.stdout + abbreviated.stderr, new RegExp(`refs/tags/${short} and the object id ${short}`));
    // The range hook names commits by id: unaffected.
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', head, '--base', base]).code, 1);
  });

  it('a tag named like the branch given to --rev is not verified in its place', async () => {
    const { root, base } = await pullRequest();
    // A tag `main` on the pull request's commit outranks the branch main.
    git(root, ['tag', 'main', 'pr']);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'main']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /GIT_TREE_UNREADABLE/);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'refs/heads/main']).code, 0);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', `${base}`]).code, 0);
    // HEAD is the checkout's own, whatever refs are named HEAD.
    git(root, ['tag', 'HEAD', base]);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD']).code, 0);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD~0', '--base', 'refs/heads/main']).code, 1);
  });
});
