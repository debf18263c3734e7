// The pre-commit framework (https://pre-commit.com) installs and runs this repository's hook as a
// user's .pre-commit-config.yaml names it: `repo:` this checkout at a commit, `pre-commit install`,
// then a commit with a tampered file staged is refused, a clean one passes, and a push of a
// tampered commit is refused. The hook is `language: script`: nothing is installed, no network.
// pre-commit is a Debian package .ci/run installs; without it the test is skipped, except in CI.
import assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { git, pinnedRepo, RUN_JS, sh } from '../helpers/git-pins.js';
import { config, hookRepo, pushedToRemote, SKIP } from '../helpers/pre-commit.js';
import { removeDir, tempDir } from '../helpers/project.js';

describe('the pre-commit framework hook', { skip: SKIP }, () => {
  const temps: string[] = [];
  after(async () => Promise.all(temps.map(removeDir)));

  it('installs from a .pre-commit-config.yaml, refuses a tampered commit and push, passes a clean commit', async () => {
    const { repo, rev } = await hookRepo(temps);
    const { root, base } = await pinnedRepo();
    temps.push(root);
    const home = await tempDir('skillctl-pre-commit-home-');
    temps.push(home);
    const env = { PRE_COMMIT_HOME: home };
    await writeFile(join(root, '.pre-commit-config.yaml'), config(repo, rev, ['skillctl-verify-pins']));
    git(root, ['add', '.pre-commit-config.yaml']);
    git(root, ['commit', '-q', '-m', 'pre-commit config']);
    for (const type of ['pre-commit', 'pre-push']) {
      const r = sh(root, 'pre-commit', ['install', '--hook-type', type], { env });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }

    // A tampered file staged, the good one back on disk: refused.
    const path = join(root, RUN_JS);
    const good = await readFile(path);
    await appendFile(path, '// tampered\n');
    git(root, ['add', RUN_JS]);
    await writeFile(path, good);
    const refused = sh(root, 'git', ['commit', '-q', '-m', 'tampered'], { env });
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /skillctl verify-pins\.+Failed/);
    assert.match(refused.stderr, /PIN_MODIFIED .*\n.*hint: changed in the index since HEAD: manifests\/hello\/run\.js/);
    const afterConfig = git(root, ['rev-parse', 'HEAD']).stdout.trim();
    assert.notEqual(afterConfig, base);

    // A clean commit passes, whatever is unstaged.
    git(root, ['reset', '-q']);
    await appendFile(path, '// work in progress\n');
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    git(root, ['add', 'NOTES.md']);
    const passed = sh(root, 'git', ['commit', '-q', '-m', 'notes'], { env });
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.match(passed.stderr, /skillctl verify-pins\.+Passed/);
    await writeFile(path, good);

    // pre-push: the first push of a branch, then a tampered commit on it.
    const remote = await pushedToRemote(root, env, temps);
    await appendFile(path, '// tampered\n');
    git(root, ['commit', '-q', '--no-verify', '-a', '-m', 'tampered']);
    const push = sh(root, 'git', ['push', '-q', 'origin', 'main'], { env });
    assert.notEqual(push.code, 0, push.stdout + push.stderr);
    assert.match(push.stdout + push.stderr, /PIN_MODIFIED/);
    assert.notEqual(git(remote, ['rev-parse', 'main']).stdout.trim(), git(root, ['rev-parse', 'HEAD']).stdout.trim());
  });

  it('pre-commit run --all-files: both hooks pass on good pins, and fail on a tampered bundle', async () => {
    const { repo, rev } = await hookRepo(temps);
    const { root } = await pinnedRepo();
    temps.push(root);
    const home = await tempDir('skillctl-pre-commit-home-');
    temps.push(home);
    const env = { PRE_COMMIT_HOME: home };
    await writeFile(join(root, '.pre-commit-config.yaml'), config(repo, rev, ['skillctl-verify-pins', 'skillctl-validate']));
    git(root, ['add', '.pre-commit-config.yaml']);

    const good = sh(root, 'pre-commit', ['run', '--all-files'], { env });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /skillctl verify-pins\.+Passed/);
    assert.match(good.stdout, /skillctl validate\.+Passed/);

    await appendFile(join(root, RUN_JS), '// tampered\n');
    git(root, ['add', RUN_JS]);
    const bad = sh(root, 'pre-commit', ['run', '--all-files'], { env });
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /skillctl verify-pins\.+Failed/);
    assert.match(bad.stdout, /PIN_MODIFIED/);
    assert.match(bad.stdout, /skillctl validate\.+Failed/);
    assert.match(bad.stdout, /CONTENT_DIGEST_MISMATCH/);
  });
});
