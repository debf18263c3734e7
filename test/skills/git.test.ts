import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePorcelainV2, type GitStatus } from '../../src/skills/git.status.js';
import { seedRepo } from '../helpers/git-repo.js';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import type { Diff } from '../helpers/skill-responses.js';

const ALLOW = { read: ['.'], exec: ['git'] };

describe('git.status', () => {
  it("answers the seed's example request with the seed's response", async () => {
      const dir = tempDir();
      await seedRepo(dir);
      const { ctx } = await skillContext('git.status', { cwd: dir, policy: ALLOW });
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
      const { ctx } = await skillContext('git.status', { cwd: dir, policy: ALLOW });
      okOutput(await runSkill('git.status', {}, ctx));
      okOutput(await runSkill('git.diff', { target: 'working' }, ctx));
      assert.deepEqual(await readFile(join(dir, '.git', 'index')), index);
      assert.equal((await stat(join(dir, '.git', 'index'))).mtimeMs, before.mtimeMs);
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
      const { ctx } = await skillContext('git.status', { cwd: dir, policy: ALLOW });
      const outcome = await runSkill('git.status', {}, ctx);
      assert.equal(errorCode(outcome), 'SKILL_GIT_FAILED');
      assert.equal((outcome as unknown as { error: { exit_code: number } }).error.exit_code, 128);
    });

  it('reports a directory that is not a work tree', async () => {
      const dir = tempDir();
      const { ctx } = await skillContext('git.status', { cwd: dir, policy: ALLOW });
      assert.equal(errorCode(await runSkill('git.status', {}, ctx)), 'SKILL_NOT_A_REPOSITORY');
      assert.equal(errorCode(await runSkill('git.diff', { target: 'working' }, ctx)), 'SKILL_NOT_A_REPOSITORY');
    });

  it('is denied without exec git or read access to the work tree', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      await mkdir(join(dir, 'elsewhere'));
      const noGit = await skillContext('git.status', { cwd: dir, policy: { read: ['.'] } });
      // The engine would refuse before running (exec git is required); the skill asks anyway.
      assert.deepEqual(noGit.grant.denials.map((d) => [d.scope, d.value]), [['exec', 'git']]);
      assert.equal(denialCode(await runSkill('git.status', {}, noGit.ctx)), 'POLICY_EXEC_DENIED');
      assert.equal(denialCode(await runSkill('git.diff', { target: 'staged' }, noGit.ctx)), 'POLICY_EXEC_DENIED');
      const noRead = await skillContext('git.status', { cwd: dir, policy: { read: ['elsewhere'], exec: ['git'] } });
      assert.equal(denialCode(await runSkill('git.status', {}, noRead.ctx)), 'POLICY_PATH_DENIED');
      assert.ok(!noRead.gate.uses.some((u) => u.scope === 'exec'), 'git never ran');
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
      const { ctx } = await skillContext('git.diff', { cwd: dir, policy: ALLOW });
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
      const { ctx } = await skillContext('git.diff', { cwd: dir, policy: ALLOW });
      const out = okOutput<Diff>(await runSkill('git.diff', { target: 'working', max_bytes: 301 }, ctx));
      assert.equal(out.truncated, true);
      assert.ok(out.bytes <= 301 && out.bytes === Buffer.byteLength(out.diff));
      assert.ok(!out.diff.includes('\uFFFD'), 'cut on a character boundary');
      const capped = await skillContext('git.diff', { cwd: dir, policy: { ...ALLOW, limits: { max_output_bytes: 100 } } });
      const c = okOutput<Diff>(await runSkill('git.diff', { target: 'working' }, capped.ctx));
      assert.ok(c.truncated && c.bytes > 0 && Buffer.byteLength(JSON.stringify(c)) <= 100, JSON.stringify(c));
    });

  it('reports a commit the repository does not have', async () => {
      const dir = tempDir();
      await seedRepo(dir);
      const { ctx } = await skillContext('git.diff', { cwd: dir, policy: ALLOW });
      assert.equal(errorCode(await runSkill('git.diff', { target: 'commit', commit: 'deadbeef' }, ctx)), 'SKILL_COMMIT_NOT_FOUND');
    });

  it('gives schema findings for bad requests (option-like commits: test/security/exec-arguments.test.ts)', async () => {
      // ajv reports the failed `if`/`then` at the root as well as the missing property.
      const noCommit = await inputFindings('git.diff', { target: 'commit' });
      assert.deepEqual(noCommit.map((f) => f.pointer).sort(), ['', '/commit']);
      assert.deepEqual(await inputFindings('git.diff', { target: 'tree' }), [{ code: 'SCHEMA_VALUE_INVALID', pointer: '/target' }]);
    });
});

// What a hostile repository's configuration names never runs: test/security/git-repository.test.ts.
describe('git.status and git.diff under bubblewrap', () => {
  it('sees only the granted paths under bubblewrap: a .git above the working directory is not there', async () => {
    const repo = tempDir();
    await seedRepo(repo);
    await mkdir(join(repo, 'sub'));
    await writeFile(join(repo, 'sub', 'e.txt'), 'e\n');
    const confined = await skillContext('git.status', { cwd: join(repo, 'sub'), policy: ALLOW, sandbox: 'bwrap' });
    assert.equal(errorCode(await runSkill('git.status', {}, confined.ctx)), 'SKILL_NOT_A_REPOSITORY');
    // Granting the work tree's top lets git find it from the subdirectory.
    const granted = await skillContext('git.status', { cwd: join(repo, 'sub'), policy: { ...ALLOW, read: [repo] }, sandbox: 'bwrap' });
    assert.deepEqual(okOutput<GitStatus>(await runSkill('git.status', {}, granted.ctx)).untracked, ['c.txt', 'sub/']);
  });
});
