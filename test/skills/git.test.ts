import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePorcelainV2, type GitStatus } from '../../src/skills/git.status.js';
import { git } from '../helpers/git-repo.js';
import { fixtureContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';

interface Diff {
  diff: string;
  bytes: number;
  truncated: boolean;
}

/** The seed's example state: on feature/x, one commit ahead of main; a.txt staged, b.txt changed, c.txt new. */
async function seedRepo(dir: string): Promise<string> {
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(join(dir, 'a.txt'), 'a\n');
  await writeFile(join(dir, 'b.txt'), 'b\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'feature/x');
  git(dir, 'branch', '-q', '--set-upstream-to=main');
  await writeFile(join(dir, 'd.txt'), 'd\n');
  git(dir, 'add', 'd.txt');
  git(dir, 'commit', '-q', '-m', 'feature work');
  await appendFile(join(dir, 'a.txt'), 'staged\n');
  git(dir, 'add', 'a.txt');
  await appendFile(join(dir, 'b.txt'), 'unstaged\n');
  await writeFile(join(dir, 'c.txt'), 'new\n');
  return git(dir, 'rev-parse', 'HEAD').trim();
}

const ALLOW = { read: ['.'], exec: ['git'] };

/** A repository whose own configuration tries to run commands through every hook git offers. */
async function hostileConfig(dir: string): Promise<void> {
  const pwn = (name: string): string => `sh -c 'touch ${join(dir, name)}'`;
  await appendFile(
    join(dir, '.git', 'config'),
    [
      '[core]',
      `\tfsmonitor = ${pwn('pwned-fsmonitor')}`,
      `\tpager = ${pwn('pwned-pager')}`,
      `\thooksPath = ${dir}/hooks`,
      '[filter "evil"]',
      `\tclean = ${pwn('pwned-clean')}`,
      `\tsmudge = ${pwn('pwned-smudge')}`,
      `\tprocess = ${pwn('pwned-process')}`,
      '[diff "evil"]',
      `\ttextconv = ${pwn('pwned-textconv')}`,
      `\tcommand = ${pwn('pwned-diffcmd')}`,
      '[diff]',
      `\texternal = ${pwn('pwned-external')}`,
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, '.gitattributes'), '* filter=evil diff=evil\n');
}

describe('git.status', () => {
  it("answers the seed's example request with the seed's response", async () => {
      const dir = tempDir();
      await seedRepo(dir);
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      const out = okOutput<GitStatus>(await runSkill('git.status', {}, ctx));
      assert.deepEqual(out, { branch: 'feature/x', ahead: 1, behind: 0, staged: ['a.txt'], unstaged: ['b.txt'], untracked: ['c.txt'] });
    });

  it('never writes to the repository, not even the index', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      // Make the index stale so that a plain `git status` would rewrite it.
      await utimes(join(dir, 'b.txt'), new Date(), new Date(Date.UTC(2030, 0, 1)));
      const index = await readFile(join(dir, '.git', 'index'));
      const before = await stat(join(dir, '.git', 'index'));
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      okOutput(await runSkill('git.status', {}, ctx));
      okOutput(await runSkill('git.diff', { target: 'working' }, ctx));
      assert.deepEqual(await readFile(join(dir, '.git', 'index')), index);
      assert.equal((await stat(join(dir, '.git', 'index'))).mtimeMs, before.mtimeMs);
    });

  it("runs none of the commands a repository's configuration names", async () => {
      const dir = tempDir();
      const head = await seedRepo(dir);
      await mkdir(join(dir, 'hooks'));
      await hostileConfig(dir);
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      okOutput(await runSkill('git.status', {}, ctx));
      for (const target of ['working', 'staged']) okOutput(await runSkill('git.diff', { target }, ctx));
      okOutput(await runSkill('git.diff', { target: 'commit', commit: head }, ctx));
      assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith('pwned')), []);
    });

  it('parses renames, conflicts, detached heads and paths with spaces', () => {
    const out = [
      '# branch.oid 1234',
      '# branch.head (detached)',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new name.txt',
      'old name.txt',
      '1 .M N... 100644 100644 100644 aaa aaa b c.txt',
      'u UU N... 100644 100644 100644 100644 aaa bbb ccc both.txt',
      '? dir/',
      '',
    ].join('\u0000');
    assert.deepEqual(parsePorcelainV2(out), { branch: '(detached)', ahead: 0, behind: 0, staged: ['new name.txt'], unstaged: ['b c.txt', 'both.txt'], untracked: ['dir/'] });
  });

  it('reports git failures with their exit code', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      await writeFile(join(dir, '.git', 'index'), 'not an index');
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      const outcome = await runSkill('git.status', {}, ctx);
      assert.equal(errorCode(outcome), 'SKILL_GIT_FAILED');
      assert.equal((outcome as unknown as { error: { exit_code: number } }).error.exit_code, 128);
    });

  it('reports a directory that is not a work tree', async () => {
      const dir = tempDir();
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      assert.equal(errorCode(await runSkill('git.status', {}, ctx)), 'SKILL_NOT_A_REPOSITORY');
      assert.equal(errorCode(await runSkill('git.diff', { target: 'working' }, ctx)), 'SKILL_NOT_A_REPOSITORY');
    });

  it('is denied without exec git or read access to the work tree', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      await mkdir(join(dir, 'elsewhere'));
      const noGit = fixtureContext({ cwd: dir, policy: { read: ['.'] } });
      assert.equal(denialCode(await runSkill('git.status', {}, noGit.ctx)), 'SKILL_NOT_ALLOWED');
      assert.equal(denialCode(await runSkill('git.diff', { target: 'staged' }, noGit.ctx)), 'SKILL_NOT_ALLOWED');
      const noRead = fixtureContext({ cwd: dir, policy: { read: ['elsewhere'], exec: ['git'] } });
      assert.equal(denialCode(await runSkill('git.status', {}, noRead.ctx)), 'SKILL_NOT_ALLOWED');
      assert.ok(!noRead.gate.calls.some((c) => c.op === 'exec'), 'git never ran');
    });

  it('gives schema findings for bad requests', async () => {
    assert.deepEqual(await inputFindings('git.status', { repo: '.' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/repo' }]);
    assert.deepEqual(await inputFindings('git.status', []), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '' }]);
  });
});

describe('git.diff', () => {
  it("answers the seed's example request: working, staged and commit diffs", async () => {
      const dir = tempDir();
      const head = await seedRepo(dir);
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      const working = okOutput<Diff>(await runSkill('git.diff', { target: 'working', max_bytes: 131072 }, ctx));
      assert.match(working.diff, /^diff --git a\/b\.txt b\/b\.txt$/m);
      assert.match(working.diff, /^\+unstaged$/m);
      assert.doesNotMatch(working.diff, /a\.txt/);
      assert.deepEqual([working.bytes, working.truncated], [Buffer.byteLength(working.diff), false]);
      const staged = okOutput<Diff>(await runSkill('git.diff', { target: 'staged' }, ctx));
      assert.match(staged.diff, /^\+staged$/m);
      assert.doesNotMatch(staged.diff, /b\.txt/);
      const commit = okOutput<Diff>(await runSkill('git.diff', { target: 'commit', commit: head.slice(0, 12) }, ctx));
      assert.match(commit.diff, /^new file mode 100644$/m);
      assert.match(commit.diff, /^\+\+\+ b\/d\.txt$/m);
    });

  it('truncates at max_bytes with the flag set, and clamps to the host cap', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      await appendFile(join(dir, 'b.txt'), 'é'.repeat(5000) + '\n');
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      const out = okOutput<Diff>(await runSkill('git.diff', { target: 'working', max_bytes: 301 }, ctx));
      assert.equal(out.truncated, true);
      assert.ok(out.bytes <= 301 && out.bytes === Buffer.byteLength(out.diff));
      assert.ok(!out.diff.includes('\uFFFD'), 'cut on a character boundary');
      const capped = fixtureContext({ cwd: dir, policy: ALLOW, limits: { maxOutputBytes: 100 } });
      const c = okOutput<Diff>(await runSkill('git.diff', { target: 'working' }, capped.ctx));
      assert.ok(c.truncated && c.bytes <= 100);
    });

  it('reports a commit the repository does not have', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      assert.equal(errorCode(await runSkill('git.diff', { target: 'commit', commit: 'deadbeef' }, ctx)), 'SKILL_COMMIT_NOT_FOUND');
    });

  it('gives schema findings for bad requests, and refuses option-like commits even unchecked', async () => {
      const dir = tempDir();
      // ajv reports the failed `if`/`then` at the root as well as the missing property.
      const noCommit = await inputFindings('git.diff', { target: 'commit' });
      assert.deepEqual(noCommit.map((f) => f.pointer).sort(), ['', '/commit']);
      assert.deepEqual(await inputFindings('git.diff', { target: 'tree' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/target' }]);
      const findings = await inputFindings('git.diff', { target: 'commit', commit: '--output=/tmp/x' });
      assert.deepEqual(findings, [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/commit' }]);
      const { ctx } = fixtureContext({ cwd: dir, policy: ALLOW });
      assert.equal(errorCode(await runSkill('git.diff', { target: 'commit', commit: '--output=x' }, ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID');
      await assert.rejects(stat(join(dir, 'x')));
    });
});
