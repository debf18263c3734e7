// The pre-commit framework hook compares the lock with the lock at the start of the range
// pre-commit names (`pre-commit run --from-ref A --to-ref B` in CI, the pre-push stage): a lock
// vouches for itself, and before, a pull request that added its own key and re-signed a tampered
// skill passed the hook (it ran `verify-pins --rev B` alone). SKILLCTL_HOOK_NO_BASE=1 accepts an
// intended change of the lock's trust; a base without a lock (the first lock) has nothing to
// compare. Real pre-commit, real git; see test/cli/pre-commit-framework.test.ts for the rest.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { errorCodes as codes, git, pinnedRepo, selfVouching, SELF_VOUCHED, sh } from '../helpers/git-pins.js';
import { pushedToRemote, SKIP, useHooks } from '../helpers/pre-commit.js';
import { removeDir } from '../helpers/project.js';
import { committedProvenactRepo, TAMPERED_WASM, writeBundle, writeLock } from '../helpers/provenact.js';

const temps: string[] = [];
const head = (root: string): string => git(root, ['rev-parse', 'HEAD']).stdout.trim();

/** A pinned repository using the verify-pins hook, its config committed on main. */
async function hooked(): Promise<{ root: string; env: Record<string, string> }> {
  const { root } = await pinnedRepo();
  temps.push(root);
  const env = await useHooks(root, ['skillctl-verify-pins'], temps);
  git(root, ['commit', '-q', '-m', 'pre-commit config']);
  return { root, env };
}

describe('the pre-commit framework hook against the base of a range', { skip: SKIP }, () => {
  after(async () => Promise.all(temps.map(removeDir)));

  it('pre-commit run --from-ref --to-ref: a pull request adding its key fails, passes with SKILLCTL_HOOK_NO_BASE=1', async () => {
    const { root, env } = await hooked();
    git(root, ['checkout', '-q', '-b', 'pr']);
    await selfVouching(root);
    const range = ['run', '--from-ref', 'main', '--to-ref', 'pr'];

    const refused = sh(root, 'pre-commit', range, { env });
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /skillctl verify-pins\.+Failed/);
    assert.match(refused.stdout, /comparing the lock with base main \(PRE_COMMIT_FROM_REF\)/);
    assert.deepEqual(codes(refused.stdout), SELF_VOUCHED);

    const accepted = sh(root, 'pre-commit', [...range, '--verbose'], { env: { ...env, SKILLCTL_HOOK_NO_BASE: '1' } });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stdout, /skillctl verify-pins\.+Passed/);
    assert.match(accepted.stdout, /SKILLCTL_HOOK_NO_BASE=1: the lock is not compared with base main/);

    // Only 1 opts out: another value is said to be wrong, never taken for yes or no.
    const typo = sh(root, 'pre-commit', range, { env: { ...env, SKILLCTL_HOOK_NO_BASE: 'yes' } });
    assert.equal(typo.code, 1, typo.stdout + typo.stderr);
    assert.match(typo.stdout, /- exit code: 2\n[^]*SKILLCTL_HOOK_NO_BASE is 1 .* or unset, not 'yes'/);

    // A range within the base's trust passes: the base compared is the range's start.
    const same = sh(root, 'pre-commit', ['run', '--from-ref', 'pr', '--to-ref', 'pr', '--verbose'], { env });
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /comparing the lock with base pr /);
  });

  it('a range whose base has no lock (the first lock) passes', async () => {
    const { root, env } = await hooked();
    git(root, ['rm', '-rq', '--cached', 'pins']);
    git(root, ['commit', '-q', '--no-verify', '-m', 'no lock yet']);
    const noLock = head(root);
    git(root, ['add', 'pins']);
    git(root, ['commit', '-q', '--no-verify', '-m', 'the first lock']);
    const r = sh(root, 'pre-commit', ['run', '--from-ref', noLock, '--to-ref', 'HEAD', '--verbose'], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /skillctl verify-pins\.+Passed/);
    assert.match(r.stdout, new RegExp(`comparing the lock with base ${noLock} `));
  });

  it('pre-push: a new branch and an existing one compare with what the remote holds; SKILLCTL_HOOK_NO_BASE=1 accepts', async () => {
    const { root, env } = await hooked();
    const install = sh(root, 'pre-commit', ['install', '--hook-type', 'pre-push'], { env });
    assert.equal(install.code, 0, install.stdout + install.stderr);
    // From the root commit: no base (the remote holds none of the history), the tree verified.
    const remote = await pushedToRemote(root, env, temps);
    const onRemote = (ref: string): string => git(remote, ['rev-parse', '--verify', '-q', ref], false).stdout.trim();

    // A new branch: pre-commit names the remote's commit it starts from.
    git(root, ['checkout', '-q', '-b', 'pr']);
    await selfVouching(root);
    const newBranch = sh(root, 'git', ['push', '-q', 'origin', 'pr'], { env });
    assert.notEqual(newBranch.code, 0, newBranch.stdout + newBranch.stderr);
    assert.match(newBranch.stdout, new RegExp(`comparing the lock with base ${onRemote('main')} `));
    assert.deepEqual(codes(newBranch.stdout), SELF_VOUCHED);
    assert.equal(onRemote('pr'), '');

    // The branch the remote holds, moved on to the same change: its old tip is the base.
    git(root, ['checkout', '-q', 'main']);
    git(root, ['merge', '-q', '--ff-only', 'pr']);
    const existing = sh(root, 'git', ['push', '-q', 'origin', 'main'], { env });
    assert.notEqual(existing.code, 0, existing.stdout + existing.stderr);
    assert.deepEqual(codes(existing.stdout), SELF_VOUCHED);
    assert.notEqual(onRemote('main'), head(root));

    // A maintainer's key rotation, accepted for this push (one ref a push: pre-commit runs the
    // hooks for the first ref of a push that has new commits only).
    const accepted = sh(root, 'git', ['push', '-q', 'origin', 'main'], { env: { ...env, SKILLCTL_HOOK_NO_BASE: '1' } });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.equal(onRemote('main'), head(root));
  });

  // Before, two provenact locks were not compared: the push of an entry re-pinned to a tampered
  // bundle (re-signed, same keys) passed the pre-push hook against the remote's commit.
  it('pre-push of a provenact-skills repository: an entry re-pinned to other digests is refused', async () => {
    const { repo, entries } = await committedProvenactRepo();
    const root = repo.root;
    temps.push(root);
    const env = await useHooks(root, ['skillctl-verify-pins'], temps);
    git(root, ['commit', '-q', '-m', 'pre-commit config']);
    const install = sh(root, 'pre-commit', ['install', '--hook-type', 'pre-push'], { env });
    assert.equal(install.code, 0, install.stdout + install.stderr);
    const remote = await pushedToRemote(root, env, temps);
    const pushed = git(remote, ['rev-parse', 'main']).stdout.trim();

    entries[0] = await writeBundle(repo, 'echo.minimal', '0.1.0', ['alice.dev', 'codex.release'], { wasm: TAMPERED_WASM });
    await writeLock(repo, entries);
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '--no-verify', '-m', 're-pin echo.minimal 0.1.0']);
    const push = sh(root, 'git', ['push', '-q', 'origin', 'main'], { env });
    assert.notEqual(push.code, 0, push.stdout + push.stderr);
    assert.match(push.stdout, new RegExp(`comparing the lock with base ${pushed} `));
    assert.deepEqual(codes(push.stdout), ['PIN_IMMUTABLE', 'PIN_IMMUTABLE']);
    assert.equal(git(remote, ['rev-parse', 'main']).stdout.trim(), pushed);
  });
});
