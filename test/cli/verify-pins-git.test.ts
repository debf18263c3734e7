// verify-pins --staged and --rev in real git repositories, as a user meets them: the hook of
// docs/hooks.md refuses a commit whose staged content is tampered even when the working tree
// holds the good file, lets an unrelated commit through whatever is unstaged, and --rev finds a
// tampered commit in the history. The working tree is never read; no program the repository
// names runs.
import assert from 'node:assert/strict';
import { appendFile, chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { git, installDocHook, pinnedRepo, RUN_JS, skillctlIn, type PinnedRepo } from '../helpers/git-pins.js';
import { removeDir, tempDir } from '../helpers/project.js';

const repos: string[] = [];
async function repo(opts: { install?: boolean } = {}): Promise<PinnedRepo> {
  const r = await pinnedRepo(opts);
  repos.push(r.root);
  return r;
}

/** Stages a tampered run.js, then puts the good one back on disk: the index and the disk now differ. */
async function stageTamperedKeepGoodOnDisk(root: string): Promise<void> {
  const path = join(root, RUN_JS);
  const good = await readFile(path);
  await appendFile(path, '// tampered\n');
  git(root, ['add', RUN_JS]);
  await writeFile(path, good);
}

const head = (root: string): string => git(root, ['rev-parse', 'HEAD']).stdout.trim();

describe('verify-pins --staged: the hook checks the commit, not the working tree', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('refuses a commit of a staged tampered file whose good copy is back on disk, naming the file', async () => {
    const { root, base } = await repo();
    await installDocHook(root, 'pre-commit');
    await stageTamperedKeepGoodOnDisk(root);
    // The hole the hook closes: the working tree verifies.
    assert.equal(skillctlIn(root, ['verify-pins']).code, 0);
    const commit = git(root, ['commit', '-q', '-m', 'tampered'], false);
    assert.equal(commit.code, 1, commit.stdout + commit.stderr);
    assert.equal(head(root), base, 'nothing was committed');
    assert.match(commit.stderr, /error {3}PIN_MODIFIED {2}files_digest is sha256:[0-9a-f]{64} in the lock but sha256:[0-9a-f]{64} for manifests\/hello \/skills\/0\/files_digest\n {10}hint: changed in the index since HEAD: manifests\/hello\/run\.js; restore the pinned files, or pin the change as a new version\n/);
    assert.match(commit.stderr, /\n✖ pins\/skills\.lock\.json \(index\): 1 of 2 pins failed; 3 errors\n$/);
    const r = skillctlIn(root, ['verify-pins', '--staged', '--json']);
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.stdout) as { ok: boolean; tree: string; diagnostics: { code: string; pointer?: string; hint?: string }[] };
    assert.equal(doc.tree, 'index');
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.pointer ?? '']), [
      ['CONTENT_DIGEST_MISMATCH', '/content_digest'],
      ['PIN_MODIFIED', '/skills/0/content_digest'],
      ['PIN_MODIFIED', '/skills/0/files_digest'],
    ]);
  });

  it('lets an unrelated NOTES.md through while a pinned skill has an unstaged edit', async () => {
    const { root, base } = await repo();
    await installDocHook(root, 'pre-commit');
    await appendFile(join(root, RUN_JS), '// work in progress\n');
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    git(root, ['add', 'NOTES.md']);
    // The working tree does not verify; the commit does.
    assert.equal(skillctlIn(root, ['verify-pins']).code, 1);
    const commit = git(root, ['commit', '-q', '-m', 'notes'], false);
    assert.equal(commit.code, 0, commit.stdout + commit.stderr);
    assert.notEqual(head(root), base);
    assert.equal(commit.stdout + commit.stderr, '', 'the hook is quiet when the commit verifies');
  });

  it('checks the temporary index of git commit -a, which git names in GIT_INDEX_FILE', async () => {
    const { root, base } = await repo();
    await installDocHook(root, 'pre-commit');
    await appendFile(join(root, RUN_JS), '// tampered\n');
    const commit = git(root, ['commit', '-q', '-a', '-m', 'all'], false);
    assert.equal(commit.code, 1, commit.stdout + commit.stderr);
    assert.match(commit.stderr, /changed in the index since HEAD: manifests\/hello\/run\.js/);
    assert.equal(head(root), base);
  });

  it('takes file modes from the index: an executable bit staged alone is a change', async () => {
    const { root } = await repo();
    git(root, ['update-index', '--chmod=+x', RUN_JS]);
    assert.equal(skillctlIn(root, ['verify-pins']).code, 0);
    const r = skillctlIn(root, ['verify-pins', '--staged', '--json']);
    assert.equal(r.code, 1, r.stdout);
    assert.ok(r.stdout.includes('"pointer": "/skills/0/content_digest"'));
  });

  it('refuses a link or a submodule staged into a bundle, as a link on disk is refused', async () => {
    const { root, base } = await repo();
    const oid = git(root, ['hash-object', '-w', RUN_JS]).stdout.trim();
    git(root, ['update-index', '--add', '--cacheinfo', `120000,${oid},manifests/hello/ln`]);
    git(root, ['update-index', '--add', '--cacheinfo', `160000,${base},manifests/hello/vendor`]);
    const r = skillctlIn(root, ['verify-pins', '--staged', '--json']);
    assert.equal(r.code, 1, r.stdout);
    const doc = JSON.parse(r.stdout) as { diagnostics: { code: string; file?: string }[] };
    assert.deepEqual(
      doc.diagnostics.filter((d) => d.code === 'BUNDLE_SYMLINK').map((d) => d.file),
      ['manifests/hello/ln', 'manifests/hello/vendor'],
    );
  });

  it('never reads the working tree: with every file deleted, the index and HEAD still verify', async () => {
    const { root } = await repo();
    for (const name of ['manifests', 'pins', '.gitignore']) await rm(join(root, name), { recursive: true, force: true });
    assert.equal(skillctlIn(root, ['verify-pins', '--staged']).code, 0);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^✔ 2 pins verified \(1 skill, 1 pack\) in pins\/skills\.lock\.json \(commit [0-9a-f]{12}\)\n$/);
    assert.equal(skillctlIn(root, ['verify-pins']).code, 2);
  });

  it('finds the project root in the tree from a subdirectory', async () => {
    const { root } = await repo();
    const r = skillctlIn(join(root, 'manifests', 'hello'), ['verify-pins', '--staged', '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match((JSON.parse(r.stdout) as { lock: string }).lock, /\/pins\/skills\.lock\.json$/);
  });

  it('runs no program the repository configuration names (fsmonitor, filters, textconv)', async () => {
    const { root } = await repo();
    const mark = join(root, '.git', 'ran');
    const prog = join(root, '.git', 'prog.sh');
    await writeFile(prog, `#!/bin/sh\ntouch '${mark}'\ncat\n`);
    await chmod(prog, 0o755);
    await writeFile(join(root, '.git', 'info', 'attributes'), '* filter=evil diff=evil\n');
    for (const [k, v] of [['core.fsmonitor', prog], ['filter.evil.clean', prog], ['filter.evil.smudge', prog], ['filter.evil.required', 'true'], ['diff.evil.textconv', prog]]) {
      git(root, ['config', k as string, v as string]);
    }
    // The trap works: git itself runs it.
    git(root, ['status', '--porcelain'], false);
    assert.ok(existsSync(mark), 'git status ran the fsmonitor program');
    await rm(mark);
    assert.equal(skillctlIn(root, ['verify-pins', '--staged']).code, 0);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD']).code, 0);
    assert.ok(!existsSync(mark), 'verify-pins ran a program the repository names');
  });
});

describe('verify-pins --rev: a commit in the history', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('reports a tampered commit under a later clean one, and passes the commit before it', async () => {
    const { root, base } = await repo();
    await appendFile(join(root, RUN_JS), '// tampered\n');
    git(root, ['commit', '-q', '-a', '-m', 'tampered']);
    const tampered = head(root);
    await writeFile(join(root, 'NOTES.md'), 'notes\n');
    git(root, ['add', 'NOTES.md']);
    git(root, ['commit', '-q', '-m', 'notes']);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD~1']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.stdout.includes(`hint: changed by commit ${tampered.slice(0, 12)}: manifests/hello/run.js; restore the pinned files`), r.stdout);
    assert.ok(r.stdout.endsWith(`✖ pins/skills.lock.json (commit ${tampered.slice(0, 12)}): 1 of 2 pins failed; 3 errors\n`), r.stdout);
    const json = JSON.parse(skillctlIn(root, ['verify-pins', '--rev', 'HEAD~1', '--json']).stdout) as { tree: string };
    assert.equal(json.tree, tampered);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD~2']).code, 0);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', base]).code, 0);
    // The latest commit still holds the tampered file: nothing to name against its parent.
    const tip = skillctlIn(root, ['verify-pins', '--rev', 'HEAD']);
    assert.equal(tip.code, 1);
    assert.ok(tip.stdout.includes('hint: restore the pinned files, or pin the change as a new version'));
  });

  it('exit 2 with the reason: no such revision, no repository, no lock in the tree, both flags', async () => {
    const { root } = await repo();
    const nope = skillctlIn(root, ['verify-pins', '--rev', 'nope']);
    assert.deepEqual([nope.code, nope.stdout, nope.stderr], [2, '', 'error GIT_TREE_UNREADABLE: nope does not name a commit in this repository\n  hint: give a branch, a tag or a commit id, e.g. --rev HEAD\n']);
    const outside = await tempDir('skillctl-no-git-');
    repos.push(outside);
    const none = skillctlIn(outside, ['verify-pins', '--staged']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^error GIT_TREE_UNREADABLE: not inside a git repository: fatal: not a git repository.*\n {2}hint: run verify-pins --staged or --rev inside the repository to check\n$/);
    git(root, ['rm', '-q', '--cached', 'pins/skills.lock.json']);
    const noLock = skillctlIn(root, ['verify-pins', '--staged']);
    assert.deepEqual([noLock.code, noLock.stderr], [2, 'error LOCK_UNREADABLE: cannot read the lock file pins/skills.lock.json from the index: it is not there\n  hint: stage it with git add, or name another with --lock\n']);
    const both = skillctlIn(root, ['verify-pins', '--staged', '--rev', 'HEAD']);
    assert.deepEqual([both.code, both.stderr], [2, "error: option '--staged' cannot be used with option '--rev <rev>'\n"]);
  });

  it('the documented pre-push hook refuses a push of a tampered commit and lets a clean one through', async () => {
    const { root } = await repo();
    const remote = await tempDir('skillctl-remote-');
    repos.push(remote);
    git(remote, ['init', '-q', '--bare', '-b', 'main']);
    git(root, ['remote', 'add', 'origin', remote]);
    await installDocHook(root, 'pre-push');
    assert.equal(git(root, ['push', '-q', 'origin', 'main'], false).code, 0);
    await appendFile(join(root, RUN_JS), '// tampered\n');
    git(root, ['commit', '-q', '-a', '-m', 'tampered']);
    const push = git(root, ['push', '-q', 'origin', 'main'], false);
    assert.notEqual(push.code, 0, 'the push was refused');
    assert.match(push.stdout + push.stderr, /PIN_MODIFIED/);
    assert.notEqual(git(remote, ['rev-parse', 'main']).stdout.trim(), head(root));
    git(root, ['revert', '--no-edit', 'HEAD']);
    assert.equal(git(root, ['push', '-q', 'origin', 'main'], false).code, 0);
    // A deletion pushes no tree: nothing to verify.
    git(root, ['push', '-q', 'origin', 'main:refs/heads/old']);
    assert.equal(git(root, ['push', '-q', 'origin', ':old'], false).code, 0);
  });
});

describe('verify-pins --staged and --rev: the skill roots of the lock in the tree', () => {
  after(async () => Promise.all(repos.map(removeDir)));
  const skillMd = (name: string): string => `---\nname: ${name}\ndescription: Count the words of a text. Use when the user asks how long a text is.\n---\n\n# ${name}\n`;

  it('a skill staged in .agents/skills/ without a pin is unpinned in the index, whatever the disk holds', async () => {
    const { root } = await repo();
    await mkdir(join(root, '.agents', 'skills', 'word-count'), { recursive: true });
    await writeFile(join(root, '.agents', 'skills', 'word-count', 'SKILL.md'), skillMd('word-count'));
    git(root, ['add', '.agents']);
    await rm(join(root, '.agents'), { recursive: true });
    assert.equal(skillctlIn(root, ['verify-pins']).code, 0, 'the working tree holds nothing unpinned');
    const r = skillctlIn(root, ['verify-pins', '--staged', '--json']);
    assert.equal(r.code, 1, r.stdout);
    const doc = JSON.parse(r.stdout) as { unpinned: string[]; diagnostics: { code: string; file?: string }[] };
    assert.deepEqual(doc.unpinned, ['.agents/skills/word-count']);
    assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.file]), [['PIN_UNPINNED', '.agents/skills/word-count']]);
  });

  it("--rev searches the skill_roots of that commit's lock", async () => {
    const { root, base } = await repo();
    // Set the roots alone (no pin), then commit a skill under the new root without pinning it.
    const set = skillctlIn(root, ['pin', '--skill-roots', 'manifests,tools/skills']);
    assert.equal(set.code, 0, set.stdout + set.stderr);
    assert.match(set.stdout, /^skill roots: manifests, tools\/skills \(were manifests, skills, \.agents\/skills, \.claude\/skills, \.github\/skills\)$/m);
    await mkdir(join(root, 'tools', 'skills', 'word-count'), { recursive: true });
    await writeFile(join(root, 'tools', 'skills', 'word-count', 'SKILL.md'), skillMd('word-count'));
    git(root, ['add', '.']);
    git(root, ['commit', '-q', '-m', 'a new skill root']);
    await rm(join(root, 'tools'), { recursive: true });
    assert.equal(skillctlIn(root, ['verify-pins']).code, 0);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--json']);
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual((JSON.parse(r.stdout) as { unpinned: string[] }).unpinned, ['tools/skills/word-count']);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', base]).code, 0);
  });
});

describe('verify-pins --base: the base lock is read whatever the lock being verified is', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  /** A branch `name` off `from` whose lock is `text`, or deleted when `text` is undefined. */
  async function branch(root: string, name: string, from: string, text: string | undefined): Promise<void> {
    git(root, ['checkout', '-q', '-b', name, from]);
    if (text === undefined) git(root, ['rm', '-q', 'pins/skills.lock.json']);
    else await writeFile(join(root, 'pins', 'skills.lock.json'), text);
    git(root, ['commit', '-q', '-a', '--allow-empty', '-m', name]);
    git(root, ['checkout', '-q', 'main']);
  }
  const findings = (stdout: string): string[][] => (JSON.parse(stdout) as { diagnostics: { code: string; pointer?: string }[] }).diagnostics.map((d) => [d.code, d.pointer ?? '']);
  const PROVENACT = '{\n  "schema_version": "1.0.0",\n  "skills": []\n}\n';

  it('a base without a lock has nothing to compare (the change brings the first lock); a base lock that does not load is exit 2', async () => {
    const { root, base } = await repo();
    await branch(root, 'nolock', base, undefined);
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'main', '--base', 'nolock']).code, 0);
    // Before, a base lock that did not load (or was not a skillctl lock) was silently nothing to compare.
    await branch(root, 'broken', base, '{"x": 1}\n');
    const broken = skillctlIn(root, ['verify-pins', '--rev', 'main', '--base', 'broken']);
    assert.equal(broken.code, 2, broken.stdout + broken.stderr);
    assert.match(broken.stderr, /^error LOCK_UNREADABLE: the lock file pins\/skills\.lock\.json of --base broken does not load: /);
  });

  it('a lock of another format than the base\'s, or one that does not load: PIN_TRUST_CHANGED at the lock', async () => {
    const { root, base } = await repo();
    await branch(root, 'provenact', base, PROVENACT);
    await branch(root, 'invalid', base, '{"lock_version": "skillctl.lock.v1"}\n');
    // A skillctl base, a provenact head (what the fixture's skill folders make unpinned aside).
    const down = skillctlIn(root, ['verify-pins', '--rev', 'provenact', '--base', 'main', '--json']);
    assert.equal(down.code, 1, down.stdout + down.stderr);
    assert.deepEqual(findings(down.stdout).filter(([c]) => c !== 'PIN_UNPINNED'), [['PIN_TRUST_CHANGED', '']]);
    // A provenact base, a skillctl head: the lock's trust changes as much.
    const up = skillctlIn(root, ['verify-pins', '--rev', 'main', '--base', 'provenact', '--json']);
    assert.equal(up.code, 1, up.stdout + up.stderr);
    assert.deepEqual(findings(up.stdout), [['PIN_TRUST_CHANGED', '']]);
    const invalid = skillctlIn(root, ['verify-pins', '--rev', 'invalid', '--base', 'main', '--json']);
    assert.equal(invalid.code, 1, invalid.stdout + invalid.stderr);
    assert.deepEqual([...new Set(findings(invalid.stdout).map(([c]) => c))].sort(), ['LOCK_INVALID', 'PIN_TRUST_CHANGED']);
    // Without --base each is what it was.
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'main']).code, 0);
  });
});

describe('verify-pins --base: the signers each pin requires', () => {
  after(async () => Promise.all(repos.map(removeDir)));

  it('a tampered new version of a skill the base requires signatures for, pinned unsigned where min_signers is 0: PIN_TRUST_CHANGED', async () => {
    const { root } = await repo();
    // The project asks for signatures pin by pin: min_signers 0, demo.hello signed by alice.
    const lockPath = join(root, 'pins', 'skills.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { min_signers: number; skills: { skill_id: string; signers: string[] }[] };
    assert.deepEqual(lock.skills.find((p) => p.skill_id === 'demo.hello')?.signers, ['alice']);
    await writeFile(lockPath, JSON.stringify({ ...lock, min_signers: 0 }, null, 2) + '\n');
    git(root, ['commit', '-q', '-a', '-m', 'signatures pin by pin']);
    const base = git(root, ['rev-parse', 'HEAD']).stdout.trim();
    // The pull request: demo.hello 0.2.0, tampered, pinned without a signature.
    await writeFile(join(root, RUN_JS), 'evil()\n');
    const manifest = join(root, 'manifests', 'hello', 'skill.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('skill_version: 0.1.0', 'skill_version: 0.2.0'));
    assert.equal(skillctlIn(root, ['validate', '--fix', 'manifests/hello']).code, 0);
    // alice's signature is for 0.1.0's manifest: the pull request drops it.
    await rm(join(root, 'manifests', 'hello', 'signatures.json'));
    const pin = skillctlIn(root, ['pin', 'manifests/hello']);
    assert.equal(pin.code, 0, pin.stdout + pin.stderr);
    git(root, ['commit', '-q', '-a', '-m', 'the pull request']);
    // The commit alone verifies: nothing in the lock requires a signer of 0.2.0.
    assert.equal(skillctlIn(root, ['verify-pins', '--rev', 'HEAD']).code, 0);
    const r = skillctlIn(root, ['verify-pins', '--rev', 'HEAD', '--base', base, '--json']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string }[] }).diagnostics.map((d) => [d.code, d.message]);
    assert.deepEqual(found, [['PIN_TRUST_CHANGED', `demo.hello 0.2.0 requires 0 signer(s); ${base} (${base.slice(0, 12)}) requires at least 1 for every version of demo.hello it pins`]]);
  });
});
