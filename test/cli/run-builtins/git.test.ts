import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BuiltinProject, expectCapped, expectDenied, expectOk, expectSchemaFindings, expectSkillError, type Ran, type RunDoc } from '../../helpers/builtin-cli.js';
import { json, skillctlAsync } from '../../helpers/cli.js';
import { seedRepo } from '../../helpers/git-repo.js';
import type { Diff } from '../../helpers/skill-responses.js';

describe('skillctl run git.status and git.diff', () => {
  const p = new BuiltinProject('skillctl-e2e-git-');
  let repo: string;
  let head: string;
  let policy: string;
  let noGit: string;

  before(async () => {
    repo = join(p.dir, 'repo');
    head = await seedRepo(repo, `${'é'.repeat(2000)}\n`);
    // Policies outside the repository, so that they are not untracked files in it.
    policy = await p.policy({ permissions: { 'fs.read': ['repo'], exec: ['git'] } });
    noGit = await p.policy({ permissions: { 'fs.read': ['repo'] } });
  });

  it("git.status answers the seed's example request with the seed's response", async () => {
    const r = await p.plain('git.status', {}, { policy, cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { branch: 'feature/x', ahead: 1, behind: 0, staged: ['a.txt'], unstaged: ['b.txt'], untracked: ['c.txt'] });
  });

  it("git.diff answers the seed's example requests: working tree, index and a commit", async () => {
    const r = await p.plain('git.diff', { target: 'working', max_bytes: 131072 }, { policy, cwd: repo });
    assert.equal(r.code, 0, r.stderr);
    const working = JSON.parse(r.stdout) as Diff;
    assert.deepEqual(Object.keys(working).sort(), ['bytes', 'diff', 'truncated']);
    assert.match(working.diff, /^diff --git a\/b\.txt b\/b\.txt$/m);
    assert.deepEqual([working.bytes, working.truncated], [Buffer.byteLength(working.diff), false]);
    const staged = expectOk<Diff>(await p.run('git.diff', { target: 'staged' }, { policy, cwd: repo }));
    assert.match(staged.diff, /^\+staged$/m);
    const commit = expectOk<Diff>(await p.run('git.diff', { target: 'commit', commit: head }, { policy, cwd: repo }));
    assert.match(commit.diff, /^\+\+\+ b\/d\.txt$/m);
  });

  it('git.diff truncates at max_bytes, and at the policy cap with the whole output under it', async () => {
    const ran = await p.run('git.diff', { target: 'working', max_bytes: 301 }, { policy, cwd: repo });
    const cut = expectOk<Diff>(ran);
    assert.equal((await p.record(ran)).result.sandbox, 'bwrap', 'git ran in bubblewrap');
    assert.ok(cut.truncated && cut.bytes <= 301 && cut.bytes > 290 && !cut.diff.includes('\uFFFD'), JSON.stringify(cut));
    const capped = await p.policy({ permissions: { 'fs.read': ['repo'], exec: ['git'] }, limits: { max_output_bytes: 800 } });
    const c = expectCapped<Diff>(await p.run('git.diff', { target: 'working' }, { policy: capped, cwd: repo }), 800);
    assert.ok(c.truncated && c.bytes > 400, JSON.stringify(c));
  });

  it('refuses to run without exec git (exit 3 before anything runs), and an argument the policy forbids', async () => {
    const rec = await expectDenied(p, await p.run('git.status', {}, { policy: noGit, cwd: repo }), 'exec', 'POLICY_PERMISSION_DENIED');
    assert.deepEqual(rec.policy.denials.map((d) => [d.scope, d.value]), [['exec', 'git']]);
    assert.equal(rec.result.attempts, 0, 'refused before the skill ran');
    const noCached = await p.policy({ permissions: { 'fs.read': ['repo'], exec: [{ command: 'git', deny_args: ['--cached'] }] } });
    await expectDenied(p, await p.run('git.diff', { target: 'staged' }, { policy: noCached, cwd: repo }), 'exec', 'POLICY_EXEC_ARGUMENT_DENIED');
    expectOk(await p.run('git.diff', { target: 'working' }, { policy: noCached, cwd: repo }));
  });

  it('reports a commit the repository does not have as a skill error', async () => {
    expectSkillError(await p.run('git.diff', { target: 'commit', commit: 'deadbeef' }, { policy, cwd: repo }), 'SKILL_COMMIT_NOT_FOUND');
  });

  it('gives exit 2 with schema findings for wrong types and missing fields', async () => {
    await expectSchemaFindings(p, await p.run('git.status', { repo: '.' }, { policy, cwd: repo }), ['/repo']);
    await expectSchemaFindings(p, await p.run('git.diff', { max_bytes: '1k' }, { policy, cwd: repo }), ['/max_bytes', '/target']);
  });

  it('with --sandbox none, runs no filter named with `=` and refuses a configuration too large to read whole (exit 3)', async () => {
    const hostile = join(p.dir, 'hostile');
    await seedRepo(hostile);
    const marker = join(p.dir, 'pwned');
    const script = join(hostile, '.git', 'filter.sh');
    await writeFile(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
    await chmod(script, 0o755);
    await appendFile(join(hostile, '.git', 'config'), `[filter "a=b"]\n\tclean = ${script}\n\tprocess = ${script}\n`);
    await writeFile(join(hostile, '.gitattributes'), '*.txt filter=a=b\n');
    const granted = await p.policy({ permissions: { 'fs.read': ['hostile'], exec: ['git'] } });
    const run = async (skill: string, request: unknown): Promise<Ran> => {
      const args = ['run', skill, '--input', '-', '--audit', p.audit, '--policy', granted, '--sandbox', 'none', '--json'];
      const cli = await skillctlAsync(args, { cwd: hostile, input: JSON.stringify(request) });
      return { cli, doc: json<RunDoc>(cli) };
    };
    expectOk(await run('git.status', {}));
    expectOk(await run('git.diff', { target: 'working' }));
    assert.equal(existsSync(marker), false, 'the filter did not run');
    await appendFile(join(hostile, '.git', 'config'), `[pad]\n${`\tk = ${'x'.repeat(1000)}\n`.repeat(5000)}`);
    const rec = await expectDenied(p, await run('git.status', {}), 'exec', 'SKILL_GIT_CONFIG_REFUSED');
    assert.equal(rec.result.sandbox, 'none');
    assert.equal(existsSync(marker), false);
  });

  it('every run left one intact audit record', async () => {
    assert.equal(await p.verifyAudit(), 15);
  });
});
