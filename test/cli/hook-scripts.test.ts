// The hook scripts a project runs: the git hooks of docs/hooks.md, the pre-commit framework's
// scripts/pre-commit-hook.sh and scripts/verify_pins.sh. Where skillctl is not installed they
// say so plainly (not npm's 404) and exit 2; scripts/verify_pins.sh verifies the index inside a
// pre-commit hook and the working tree elsewhere, and compares the lock with the start of a range
// the pre-commit framework names, as scripts/pre-commit-hook.sh does.
import assert from 'node:assert/strict';
import { appendFile, chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { docHook, errorCodes, git, installDocHook, pinnedRepo, RUN_JS, selfVouching, SELF_VOUCHED, sh, type PinnedRepo, type Ran } from '../helpers/git-pins.js';
import { ROOT } from '../helpers/paths.js';
import { removeDir } from '../helpers/project.js';

const NOT_INSTALLED = 'skillctl is not installed in this project: npm install -D skillctl\n';
const repos: string[] = [];
/** scripts/verify_pins.sh copied into `root`, where a repository keeps it (it verifies the repository that holds it). */
async function copyScript(root: string): Promise<void> {
  await mkdir(join(root, 'scripts'));
  await copyFile(join(ROOT, 'scripts', 'verify_pins.sh'), join(root, 'scripts', 'verify_pins.sh'));
}
async function repo(opts: { install?: boolean } = {}): Promise<PinnedRepo> {
  const r = await pinnedRepo(opts);
  repos.push(r.root);
  return r;
}

describe('hook scripts where skillctl is not installed', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('the documented pre-commit hook refuses the commit with the install command, not an npm 404', async () => {
    const { root, base } = await repo({ install: false });
    await installDocHook(root, 'pre-commit');
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    git(root, ['add', 'NOTES.md']);
    const commit = git(root, ['commit', '-q', '-m', 'notes'], false);
    assert.deepEqual([commit.code, commit.stdout, commit.stderr], [1, '', NOT_INSTALLED]);
    assert.equal(git(root, ['rev-parse', 'HEAD']).stdout.trim(), base);
  });

  it('each script exits 2 with the same message', async () => {
    const { root } = await repo({ install: false });
    await copyScript(root);
    const runs = [
      sh(root, 'sh', ['-c', docHook('pre-commit')]),
      sh(root, 'sh', ['-c', docHook('pre-push'), 'pre-push', 'origin', 'url'], { input: `refs/heads/main ${'1'.repeat(40)} refs/heads/main ${'0'.repeat(40)}\n` }),
      sh(root, 'sh', [join(ROOT, 'scripts', 'pre-commit-hook.sh')]),
      sh(root, 'sh', [join(root, 'scripts', 'verify_pins.sh')]),
    ];
    for (const r of runs) assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', NOT_INSTALLED]);
  });
});

describe('scripts/verify_pins.sh', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('verifies the index inside a pre-commit hook, and the working tree when run by hand', async () => {
    const { root, base } = await repo();
    await copyScript(root);
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    await writeFile(hook, '#!/bin/sh\nexec sh scripts/verify_pins.sh --quiet\n');
    await chmod(hook, 0o755);
    const path = join(root, RUN_JS);
    const good = await readFile(path);
    await appendFile(path, '// tampered\n');
    git(root, ['add', RUN_JS]);
    await writeFile(path, good);
    const commit = git(root, ['commit', '-q', '-m', 'tampered'], false);
    assert.equal(commit.code, 1, commit.stdout + commit.stderr);
    assert.match(commit.stderr, /PIN_MODIFIED .*\n.*changed in the index since HEAD: manifests\/hello\/run\.js/);
    assert.equal(git(root, ['rev-parse', 'HEAD']).stdout.trim(), base);
    // By hand: the working tree, which holds the good file.
    const byHand = sh(root, 'sh', ['scripts/verify_pins.sh']);
    assert.equal(byHand.code, 0, byHand.stdout + byHand.stderr);
    assert.match(byHand.stdout, /in pins\/skills\.lock\.json\n$/);
    // Told which tree: --rev HEAD verifies the commit, whatever the hook context.
    assert.equal(sh(root, 'sh', ['scripts/verify_pins.sh', '--rev', 'HEAD'], { env: { GIT_INDEX_FILE: join(root, '.git', 'index') } }).code, 0);
    assert.equal(sh(root, 'sh', ['scripts/verify_pins.sh'], { env: { GIT_INDEX_FILE: join(root, '.git', 'index') } }).code, 1);
  });
});

/**
 * What a hook script says and does where a range has no base (scripts/pre-commit-hook.sh and
 * scripts/verify_pins.sh alike): each case named on stderr, the commit stage silent, and a base
 * git cannot find a failure (exit 2), never a comparison skipped.
 */
function noBase(run: (env: Record<string, string>) => Ran): void {
  const none: [Record<string, string>, RegExp][] = [
    [{ PRE_COMMIT_FROM_REF: '0'.repeat(40), PRE_COMMIT_TO_REF: 'HEAD' }, /\(PRE_COMMIT_FROM_REF is all zeros: no commit before the range\)\n$/],
    [{ PRE_COMMIT_TO_REF: 'HEAD' }, /\(PRE_COMMIT_FROM_REF is not set\)\n$/],
    [{ PRE_COMMIT_REMOTE_NAME: 'origin', PRE_COMMIT_LOCAL_BRANCH: 'refs/heads/main' }, /\(a push from a root commit: the remote holds none of its history\)\n$/],
    [{ PRE_COMMIT_FROM_REF: 'no-such-branch', PRE_COMMIT_TO_REF: 'HEAD', PRE_COMMIT_CHECKOUT_TYPE: '1' }, /\(post-checkout: the commit checked out before is not a base\)\n$/],
  ];
  for (const [env, why] of none) {
    const r = run(env);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /^skillctl verify-pins: no base to compare the lock with /);
    assert.match(r.stderr, why);
  }
  // The commit stage has no range, and says nothing of a base.
  assert.deepEqual([run({}).code, run({}).stderr], [0, '']);
  // A base named that git cannot find is no reason to skip the comparison.
  const missing = run({ PRE_COMMIT_FROM_REF: 'no-such-branch', PRE_COMMIT_TO_REF: 'HEAD' });
  assert.equal(missing.code, 2, missing.stdout + missing.stderr);
  assert.match(missing.stderr, /GIT_TREE_UNREADABLE/);
}

describe('scripts/verify_pins.sh: the base of a range the pre-commit framework names', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  // Before, the script passed --rev "$PRE_COMMIT_TO_REF" alone: a change that adds its own key and
  // re-pins a tampered skill under it passed at pre-push and in `pre-commit run --from-ref --to-ref`.
  it('a change vouching for itself fails against PRE_COMMIT_FROM_REF; SKILLCTL_HOOK_NO_BASE=1 accepts it, another value is refused', async () => {
    const { root, base } = await repo();
    await copyScript(root);
    git(root, ['add', 'scripts']);
    git(root, ['commit', '-q', '-m', 'the script']);
    const start = git(root, ['rev-parse', 'HEAD']).stdout.trim();
    await selfVouching(root);
    const range = { PRE_COMMIT: '1', PRE_COMMIT_FROM_REF: start, PRE_COMMIT_TO_REF: 'HEAD' };
    const run = (env: Record<string, string>, args: readonly string[] = []): Ran => sh(root, 'sh', ['scripts/verify_pins.sh', ...args], { env });

    const refused = run(range);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.deepEqual(errorCodes(refused.stdout), SELF_VOUCHED);
    assert.equal(refused.stderr, `skillctl verify-pins: comparing the lock with base ${start} (PRE_COMMIT_FROM_REF); SKILLCTL_HOOK_NO_BASE=1 accepts an intended change of its trust\n`);

    const accepted = run({ ...range, SKILLCTL_HOOK_NO_BASE: '1' });
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stderr, /SKILLCTL_HOOK_NO_BASE=1: the lock is not compared with base /);
    const typo = run({ ...range, SKILLCTL_HOOK_NO_BASE: 'yes' });
    assert.deepEqual([typo.code, typo.stdout], [2, '']);
    assert.match(typo.stderr, /SKILLCTL_HOOK_NO_BASE is 1 .* or unset, not 'yes'/);

    // A --base in the arguments is the one compared with: the range's start is not added.
    for (const args of [['--base', 'HEAD'], ['--base=HEAD']]) {
      const named = run(range, args);
      assert.deepEqual([named.code, named.stderr], [0, ''], named.stdout + named.stderr);
    }
    assert.deepEqual(errorCodes(run(range, ['--base', base]).stdout), SELF_VOUCHED);
  });

  it('no base for an all-zeros or missing PRE_COMMIT_FROM_REF, at post-checkout, or a push from a root commit; the commit stage says nothing of one', async () => {
    const { root } = await repo();
    await copyScript(root);
    noBase((env) => sh(root, 'sh', ['scripts/verify_pins.sh'], { env: { PRE_COMMIT: '1', ...env } }));
  });
});

describe('scripts/pre-commit-hook.sh: the base of a range', () => {
  after(async () => Promise.all(repos.map(removeDir)));
  const hook = join(ROOT, 'scripts', 'pre-commit-hook.sh');

  it('names the base it compares with, says why there is none, and fails closed on a base that names no commit', async () => {
    const { root, base } = await repo();
    const run = (env: Record<string, string>): Ran => sh(root, 'sh', [hook], { env });
    const compared = run({ PRE_COMMIT_FROM_REF: base, PRE_COMMIT_TO_REF: 'HEAD' });
    assert.deepEqual([compared.code, compared.stderr], [0, `skillctl verify-pins: comparing the lock with base ${base} (PRE_COMMIT_FROM_REF); SKILLCTL_HOOK_NO_BASE=1 accepts an intended change of its trust\n`]);
    noBase(run);
  });
});
