import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePorcelainV2, type GitStatus } from '../../src/skills/git.status.js';
import { git, seedRepo } from '../helpers/git-repo.js';
import { skillContext } from '../helpers/skill-context.js';
import { denialCode, errorCode, inputFindings, okOutput, runSkill } from '../helpers/skill-contract.js';
import { tempDir } from '../helpers/tmp.js';
import type { Diff } from '../helpers/skill-responses.js';
import type { SandboxMode } from '../../src/core/run/index.js';

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

  it("runs none of the commands a repository's configuration names", async () => {
      const dir = tempDir();
      const head = await seedRepo(dir);
      await mkdir(join(dir, 'hooks'));
      await hostileConfig(dir);
      const { ctx } = await skillContext('git.status', { cwd: dir, policy: ALLOW });
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

/**
 * A script inside the repository (so that the sandbox would let git start it) that leaves a marker
 * in a directory outside it, which the sandbox does not hold. Returns the marker's path.
 */
async function plant(repo: string, outside: string, name: string): Promise<{ script: string; marker: string }> {
  const marker = join(outside, `pwned-${name}`);
  const script = join(repo, `${name}.sh`);
  await writeFile(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  await chmod(script, 0o755);
  return { script, marker };
}

describe('git.status and git.diff on a hostile repository: nothing it names runs outside the sandbox', () => {
  for (const sandbox of ['bwrap', 'none'] as const satisfies readonly SandboxMode[]) {
    const open = async (repo: string): Promise<Awaited<ReturnType<typeof skillContext>>> => skillContext('git.status', { cwd: repo, policy: ALLOW, sandbox });
    const sandboxes = (confined: { sandbox: string }[]): string[] => [...new Set(confined.map((c) => c.sandbox))];

    it(`--sandbox ${sandbox}: core.fsmonitor, diff.external and a textconv driver write nothing outside`, async () => {
      const repo = tempDir();
      const outside = tempDir('skillctl-git-outside-');
      const head = await seedRepo(repo);
      const fsmonitor = await plant(repo, outside, 'fsmonitor');
      const external = await plant(repo, outside, 'external');
      const textconv = await plant(repo, outside, 'textconv');
      git(repo, 'config', 'core.fsmonitor', fsmonitor.script);
      git(repo, 'config', 'diff.external', external.script);
      git(repo, 'config', 'diff.evil.textconv', textconv.script);
      await writeFile(join(repo, '.gitattributes'), '*.txt diff=evil\n');
      const { ctx, confined } = await open(repo);
      const status = okOutput<GitStatus>(await runSkill('git.status', {}, ctx));
      assert.deepEqual([status.staged, status.unstaged], [['a.txt'], ['b.txt']]);
      const working = okOutput<Diff>(await runSkill('git.diff', { target: 'working' }, ctx));
      assert.match(working.diff, /^\+unstaged$/m, 'the plain diff, not a driver');
      okOutput(await runSkill('git.diff', { target: 'staged' }, ctx));
      okOutput(await runSkill('git.diff', { target: 'commit', commit: head }, ctx));
      for (const { marker } of [fsmonitor, external, textconv]) assert.equal(existsSync(marker), false, marker);
      assert.deepEqual(sandboxes(confined), [sandbox]);
    });

    it(`--sandbox ${sandbox}: a signed commit does not run gpg.program (log.showSignature)`, async () => {
      const repo = tempDir();
      const outside = tempDir('skillctl-git-outside-');
      await seedRepo(repo);
      const gpg = await plant(repo, outside, 'gpg');
      const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
      const signed = [
        `tree ${tree}`,
        'author Test <test@example.invalid> 1767225600 +0000',
        'committer Test <test@example.invalid> 1767225600 +0000',
        'gpgsig -----BEGIN PGP SIGNATURE-----',
        ' ',
        ' x',
        ' -----END PGP SIGNATURE-----',
        '',
        'signed',
        '',
      ].join('\n');
      const commit = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo, input: signed, encoding: 'utf8' }).trim();
      git(repo, 'config', 'log.showSignature', 'true');
      git(repo, 'config', 'gpg.program', gpg.script);
      const { ctx, confined } = await open(repo);
      const diff = okOutput<Diff>(await runSkill('git.diff', { target: 'commit', commit }, ctx));
      assert.match(diff.diff, /^\+\+\+ b\/d\.txt$/m);
      assert.equal(existsSync(gpg.marker), false);
      assert.deepEqual(sandboxes(confined), [sandbox]);
    });

    it(`--sandbox ${sandbox}: a submodule's own clean filter does not run (its dirtiness is not asked)`, async () => {
      const root = tempDir();
      const outside = tempDir('skillctl-git-outside-');
      const sub = join(root, 'sub');
      const repo = join(root, 'super');
      await mkdir(sub);
      git(sub, 'init', '-q', '-b', 'main');
      await writeFile(join(sub, '.gitattributes'), '* filter=evil\n');
      await writeFile(join(sub, 'f'), 'x\n');
      git(sub, 'add', '.');
      git(sub, 'commit', '-q', '-m', 'sub');
      await mkdir(repo);
      git(repo, 'init', '-q', '-b', 'main');
      git(repo, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub, 's');
      git(repo, 'commit', '-q', '-m', 'super');
      const clean = await plant(repo, outside, 'clean');
      const inner = join(repo, 's');
      git(inner, 'config', 'filter.evil.clean', clean.script);
      await appendFile(join(inner, 'f'), 'changed\n');
      await utimes(join(inner, 'f'), new Date(), new Date(Date.UTC(2030, 0, 1)));
      const { ctx, confined } = await open(repo);
      for (const target of ['working', 'staged']) okOutput(await runSkill('git.diff', { target }, ctx));
      okOutput(await runSkill('git.status', {}, ctx));
      assert.equal(existsSync(clean.marker), false);
      assert.deepEqual(sandboxes(confined), [sandbox]);
    });
  }

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
