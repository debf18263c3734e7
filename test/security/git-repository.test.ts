// Threat: hostile repositories (git runs no program a repository names, reads nothing outside the grant).
/**
 * A repository is attacker-controlled input (DESIGN.md, "Confinement"): git.status and git.diff
 * must never run a program it names, whatever the name, nor read a repository, configuration or
 * object store outside the grant. Each row of ATTACKS is a real repository; each runs with
 * `--sandbox none` (the neutralisation alone) and with bubblewrap, and asserts the outcome code
 * and that no trap ran (no marker outside the scratch folder, nothing on the tripwire).
 */
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BuiltinContext, BuiltinOutcome, SandboxMode } from '../../src/core/run/index.js';
import { configFiles, FIXED, neutralise, olderThan231, parseListing, tookOverrides } from '../../src/skills/lib/git-config.js';
import { parsePlace } from '../../src/skills/lib/git-place.js';
import { git, seedRepo } from '../helpers/git-repo.js';
import { skillContext } from '../helpers/skill-context.js';
import { runSkill } from '../helpers/skill-contract.js';
import { PLACE_ATTACKS } from './git-attacks-places.js';
import { PROGRAM_ATTACKS } from './git-attacks-programs.js';
import { scratch, type Attack, type Run, type Setup } from './git-traps.js';

const ALLOW = { read: ['.'], exec: ['git'] };

/** The code an outcome ends with: `ok`, the skill's error code, or the denial's code. */
function codeOf(outcome: BuiltinOutcome): string {
  switch (outcome.status) {
    case 'ok':
      return 'ok';
    case 'error':
      return outcome.error.code;
    case 'denied':
      return outcome.decision.code;
    case 'unavailable':
      return outcome.diagnostics.map((d) => d.code).join(',');
    default: {
      const never: never = outcome;
      return never;
    }
  }
}

function runsOf(setup: Setup): readonly Run[] {
  if (setup.runs !== undefined) return setup.runs;
  const runs: Run[] = [
    { skill: 'git.status', input: {} },
    { skill: 'git.diff', input: { target: 'working' } },
    { skill: 'git.diff', input: { target: 'staged' } },
  ];
  if (setup.commit !== undefined) runs.push({ skill: 'git.diff', input: { target: 'commit', commit: setup.commit } });
  return runs;
}

/**
 * A policy that passes every variable of `env` to the skill. The manifests request none, so a real
 * run never passes GIT_* names; the skill drops them anyway, which this lets a test check.
 */
function passingEnv(ctx: BuiltinContext): BuiltinContext {
  return { ...ctx, policy: { ...ctx.policy, checkEnv: (name: string) => ({ allowed: true, resolved: name }) } };
}

function expected(attack: Attack, sandbox: 'none' | 'bwrap'): string {
  return typeof attack.expect === 'string' ? attack.expect : attack.expect[sandbox];
}

describe('git.status and git.diff on hostile repositories', () => {
  for (const sandbox of ['none', 'bwrap'] as const satisfies readonly SandboxMode[]) {
    describe(`--sandbox ${sandbox}`, () => {
      for (const attack of [...PROGRAM_ATTACKS, ...PLACE_ATTACKS]) {
        it(attack.name, async () => {
          const t = await scratch(attack.tripDir);
          try {
            const setup = await attack.build(t);
            const made = await skillContext('git.status', { cwd: t.repo, policy: ALLOW, sandbox, limits: { timeoutMs: 20_000 }, ...(setup.env !== undefined ? { env: { PATH: process.env.PATH ?? '', ...setup.env } } : {}) });
            const ctx = setup.env !== undefined ? passingEnv(made.ctx) : made.ctx;
            const got: string[] = [];
            for (const run of runsOf(setup)) got.push(`${run.skill} ${JSON.stringify(run.input)}: ${codeOf(await runSkill(run.skill, run.input, ctx))}`);
            const want = runsOf(setup).map((run) => `${run.skill} ${JSON.stringify(run.input)}: ${run.expect ?? expected(attack, sandbox)}`);
            // Both at once: a failing row shows its outcomes and the traps that ran.
            assert.deepEqual({ outcomes: got, sprung: t.sprung() }, { outcomes: want, sprung: [] });
            if (made.confined.length > 0) assert.deepEqual([...new Set(made.confined.map((c) => c.sandbox))], [sandbox]);
          } finally {
            t.close();
          }
        });
      }
    });
  }
});

describe('git.status and git.diff refuse what they cannot neutralise', () => {
  it('refuses a git older than 2.31 (GIT_CONFIG_COUNT ignored) before running status or diff', async () => {
    const t = await scratch();
    try {
      await seedRepo(t.repo);
      const bin = join(t.root, 'bin');
      const log = join(t.root, 'calls');
      await mkdir(bin);
      // git 2.30 lists the repository's configuration and ignores GIT_CONFIG_COUNT.
      const fake = `#!/bin/sh\necho "$*" >> '${log}'\ncase "$*" in\n*version*) echo 'git version 2.30.9' ;;\n*config*) printf 'local\\0file:.git/config\\0core.bare\\nfalse\\0' ;;\n*) exit 1 ;;\nesac\n`;
      await writeFile(join(bin, 'git'), fake, { mode: 0o755 });
      const { ctx } = await skillContext('git.status', { cwd: t.repo, policy: ALLOW, sandbox: 'none', env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
      for (const [skill, input] of [['git.status', {}], ['git.diff', { target: 'working' }]] as const) {
        const outcome = await runSkill(skill, input, ctx);
        assert.equal(codeOf(outcome), 'SKILL_GIT_FAILED');
        assert.match((outcome as { error: { message: string } }).error.message, /2\.31/);
      }
      const calls = (await readFile(log, 'utf8')).trim().split('\n').map((c) => c.split(' ')[1]);
      assert.deepEqual([...new Set(calls)].sort(), ['config', 'version']);
    } finally {
      t.close();
    }
  });

  it('with --sandbox none, refuses a .git above the granted working directory (bubblewrap hides it)', async () => {
    const t = await scratch();
    try {
      await seedRepo(t.repo);
      await mkdir(join(t.repo, 'sub'));
      for (const sandbox of ['none', 'bwrap'] as const) {
        const { ctx } = await skillContext('git.status', { cwd: join(t.repo, 'sub'), policy: ALLOW, sandbox });
        assert.equal(codeOf(await runSkill('git.status', {}, ctx)), sandbox === 'none' ? 'POLICY_PATH_DENIED' : 'SKILL_NOT_A_REPOSITORY');
      }
    } finally {
      t.close();
    }
  });
});

describe('submodules are other repositories', () => {
  for (const sandbox of ['none', 'bwrap'] as const) {
    it(`--sandbox ${sandbox}: a submodule whose .git leads outside the grant is never read`, async () => {
      const t = await scratch();
      try {
        const head = await seedRepo(t.repo);
        const other = join(t.outside, 'private');
        await mkdir(other);
        git(other, 'init', '-q');
        git(other, 'commit', '-q', '--allow-empty', '-m', 'private');
        const secret = git(other, 'rev-parse', 'HEAD').trim();
        await mkdir(join(t.repo, 's'));
        await writeFile(join(t.repo, 's', '.git'), `gitdir: ${join(other, '.git')}\n`);
        git(t.repo, 'update-index', '--add', '--cacheinfo', `160000,${head},s`);
        const { ctx } = await skillContext('git.diff', { cwd: t.repo, policy: ALLOW, sandbox });
        for (const [skill, input] of [['git.status', {}], ['git.diff', { target: 'working' }], ['git.diff', { target: 'staged' }]] as const) {
          const outcome = await runSkill(skill, input, ctx);
          assert.equal(codeOf(outcome), 'ok');
          assert.ok(!JSON.stringify(outcome).includes(secret), `${skill} ${JSON.stringify(input)} shows the outside repository's HEAD`);
        }
      } finally {
        t.close();
      }
    });
  }
  for (const sandbox of ['none', 'bwrap'] as const) {
    it(`--sandbox ${sandbox}: a submodule's own clean filter does not run (its dirtiness is not asked)`, async () => {
      const t = await scratch();
      try {
        const sub = join(t.root, 'sub');
        await mkdir(sub);
        git(sub, 'init', '-q', '-b', 'main');
        await writeFile(join(sub, '.gitattributes'), '* filter=evil\n');
        await writeFile(join(sub, 'f'), 'x\n');
        git(sub, 'add', '.');
        git(sub, 'commit', '-q', '-m', 'sub');
        git(t.repo, 'init', '-q', '-b', 'main');
        git(t.repo, '-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub, 's');
        git(t.repo, 'commit', '-q', '-m', 'super');
        const inner = join(t.repo, 's');
        git(inner, 'config', 'filter.evil.clean', await t.trap('clean'));
        await appendFile(join(inner, 'f'), 'changed\n');
        await utimes(join(inner, 'f'), new Date(), new Date(Date.UTC(2030, 0, 1)));
        const { ctx } = await skillContext('git.status', { cwd: t.repo, policy: ALLOW, sandbox });
        for (const [skill, input] of [['git.diff', { target: 'working' }], ['git.diff', { target: 'staged' }], ['git.status', {}]] as const) {
          assert.equal(codeOf(await runSkill(skill, input, ctx)), 'ok', `${skill} ${JSON.stringify(input)}`);
        }
        assert.deepEqual(t.sprung(), []);
      } finally {
        t.close();
      }
    });
  }
});

describe('the configuration listing and its overrides', () => {
  const listing = (...items: [string, string, string][]): Buffer => Buffer.concat(items.map(([s, o, kv]) => Buffer.from(`${s}\0${o}\0${kv}\0`, 'latin1')));

  it('overrides each program-naming key exactly as git printed it, then the fixed settings', () => {
    const entries = parseListing(
      listing(
        ['local', 'file:.git/config', 'filter.a=b.clean\nx'],
        ['local', 'file:.git/config', 'filter.Q"x.y.process\nx'],
        ['local', 'file:inc.cfg', 'diff.d.textconv\nx'],
        ['worktree', 'file:.git/config.worktree', 'core.sshcommand\nx'],
        ['local', 'file:.git/config', 'pager.status\nx'],
        ['local', 'file:.git/config', 'remote.origin.vcs\nx'],
        ['local', 'file:.git/config', 'branch.cmd.remote\norigin'],
        ['local', 'file:.git/config', 'core.bare\nfalse'],
        ['local', 'file:.git/config', 'difftool.x.path\ny'],
        ['local', 'file:.git/config', 'include.path\ninc.cfg'],
      ),
    );
    assert.ok(entries !== undefined);
    const n = neutralise(entries);
    assert.ok(n.ok);
    const repo = n.overrides.slice(0, n.overrides.length - FIXED.length);
    assert.deepEqual(repo, [
      ['diff.d.textconv', ''],
      ['difftool.x.path', ''],
      ['filter.Q"x.y.process', ''],
      ['filter.Q"x.y.required', 'false'],
      ['filter.a=b.clean', ''],
      ['filter.a=b.required', 'false'],
      ['pager.status', 'false'],
      ['remote.origin.vcs', ''],
    ]);
    assert.deepEqual(n.overrides.slice(repo.length), FIXED);
    assert.deepEqual(configFiles(entries), { files: ['.git/config', '.git/config.worktree', 'inc.cfg'] });
  });

  it('refuses a key to override that is not UTF-8, a listing not in the format, an origin that is not a file', () => {
    const bad = parseListing(listing(['local', 'file:.git/config', 'filter.\u00ff.clean\nx']));
    assert.ok(bad !== undefined);
    assert.equal(neutralise(bad).ok, false);
    const harmless = parseListing(listing(['local', 'file:.git/config', 'branch.\u00ff.remote\nx']));
    assert.ok(harmless !== undefined && neutralise(harmless).ok);
    assert.equal(parseListing(Buffer.from('local\0file:x\0a.b\nc')), undefined);
    assert.ok('reason' in configFiles(parseListing(listing(['local', 'blob:HEAD:x', 'a.b\nc'])) ?? []));
    assert.equal(tookOverrides(parseListing(listing(['local', 'file:x', 'a.b\nc'])) ?? []), false);
    assert.equal(tookOverrides(parseListing(listing(...FIXED.map(([k, v]): [string, string, string] => ['command', 'command line:', `${k}\n${v}`]))) ?? []), true);
    assert.deepEqual([olderThan231('git version 2.30.9'), olderThan231('git version 2.31.0'), olderThan231('git version 3.0.1'), olderThan231('nonsense')], [true, false, false, true]);
  });

  it("reads rev-parse's answer, and refuses one a newline in a path would have changed", () => {
    assert.deepEqual(parsePlace('false\n/r/.git\n/r/.git\n../\n', '/r/sub'), { gitDir: '/r/.git', commonDir: '/r/.git', top: '/r', base: '/r' });
    assert.deepEqual(parsePlace('false\n/r/.git\n/r/.git\n/w\n', '/r'), { gitDir: '/r/.git', commonDir: '/r/.git', top: '/w', base: '/r' });
    assert.deepEqual(parsePlace('true\n/b.git\n/b.git\n', '/b.git'), { gitDir: '/b.git', commonDir: '/b.git', top: undefined, base: '/b.git' });
    assert.equal(parsePlace('true\n/b\n.git\n/b.git\n', '/b.git'), undefined);
    assert.equal(parsePlace('false\n/r/.git\n/r/.git\n\n\n', '/r'), undefined);
    assert.equal(parsePlace('false\n/r/.git\n/r/.git\n', '/r')?.top, undefined);
  });
});
