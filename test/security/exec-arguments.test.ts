// Threat: exec and argument injection (options smuggled through arguments make an allowed program run another, or write elsewhere).
// A shell entrypoint's command carries rg's `--pre`, git's `-c`, `--config-env`, `--output` or
// `--ext-diff`, whole, `=`-joined, clustered or abbreviated as getopt_long would expand it, under
// a policy that denies them, or steps off an allowlist; a built-in's input puts the same options
// where rg or git will read them (a pattern, a glob, a path, a commit); shell.exec_safe's argv
// carries shell syntax or an output file outside the grant. Each is refused before anything
// starts, or reaches its program as data; the trap (`evil.sh`, which writes into the sentinel)
// never runs, and the sentinel stays as it was. Built-ins run with `--sandbox none` here, so that
// the argument handling alone stands between.
import assert from 'node:assert/strict';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { entry, writeBundle } from '../helpers/bundles.js';
import { attackRows, runTarget, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { skillContext } from '../helpers/skill-context.js';
import { errorCode, runSkill } from '../helpers/skill-contract.js';
import { hasRipgrep } from '../helpers/skill-responses.js';

const POLICY = 'exec.policy.yaml';
/** git allowed only as `git status --porcelain`. */
const ALLOWLIST = 'allowlist.policy.yaml';
const pwned = (sc: Scratch): string => join(sc.outside, 'pwned');

/** A shell entrypoint whose whole command is `argv` (requesting exec of argv[0]), run under POLICY. */
function command(name: string, argv: (sc: Scratch) => string[], policy = POLICY): (sc: Scratch) => Promise<Ran> {
  return async (sc) => {
    const a = argv(sc);
    const dir = join(sc.work, 'bundles', name);
    await writeBundle(dir, { entrypoints: [entry({ runtime: 'shell', runtime_version: 'sh@1', command: a, requested_permissions: { exec: [a[0]] } })] });
    return runTarget(`./bundles/${name}`, {}, { cwd: sc.work, policy });
  };
}

const smuggled: Attack[] = [
  { what: 'rg --pre PROGRAM', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('rg-pre', () => ['rg', '--pre', './evil.sh', 'x', '.']) },
  { what: 'rg --pre=PROGRAM', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('rg-pre-eq', () => ['rg', '--pre=./evil.sh', 'x', '.']) },
  { what: 'rg --pr=PROGRAM (abbreviated)', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('rg-pr', () => ['rg', '--pr=./evil.sh', 'x', '.']) },
  { what: 'rg -iz (search-zip, in a cluster)', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('rg-iz', () => ['rg', '-iz', 'x', '.']) },
  { what: 'git -c core.pager=PROGRAM', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-c', () => ['git', '-c', 'core.pager=./evil.sh', 'log']) },
  { what: 'git -ccore.pager=PROGRAM (attached)', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-c-attached', () => ['git', '-ccore.pager=./evil.sh', 'log']) },
  { what: 'git --config-env=core.pager=VAR', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-config-env', () => ['git', '--config-env=core.pager=EVIL', 'log']) },
  { what: 'git diff --output=FILE outside', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-output', (sc) => ['git', 'diff', `--output=${pwned(sc)}`]) },
  { what: 'git diff --outp FILE (abbreviated)', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-outp', (sc) => ['git', 'diff', '--outp', pwned(sc)]) },
  { what: 'git diff --ext-diff', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-ext-diff', () => ['git', 'diff', '--ext-diff']) },
  { what: 'git diff --ext-d (abbreviated)', code: 'POLICY_EXEC_ARGUMENT_DENIED', exit: 3, attempt: command('git-ext-d', () => ['git', 'diff', '--ext-d']) },
  {
    what: 'git -c before an allowlisted `status --porcelain`',
    code: 'POLICY_EXEC_ARGUMENT_DENIED',
    exit: 3,
    attempt: command('git-allowlist', () => ['git', '-c', 'core.fsmonitor=./evil.sh', 'status', '--porcelain'], ALLOWLIST),
  },
];

/** A built-in run under POLICY, as an agent would call it. */
const builtin = (skill: string, input: (sc: Scratch) => unknown, sandbox: 'none' | 'auto' = 'none') => (sc: Scratch): Promise<Ran> =>
  runTarget(skill, input(sc), { cwd: sc.work, policy: POLICY, sandbox });
const matches = (files: string[]) => (r: Ran): void => assert.deepEqual((r.output as { matches: { file: string }[] }).matches.map((m) => m.file), files);

const viaInput: Attack[] = [
  ...(hasRipgrep()
    ? [
        { what: 'search.ripgrep (rg) with the pattern --pre=PROGRAM', code: null, exit: 0, attempt: builtin('search.ripgrep', () => ({ pattern: '--pre=./evil.sh', paths: ['data'] })), check: matches([]) },
        { what: 'search.ripgrep (rg) with a glob --pre=PROGRAM', code: null, exit: 0, attempt: builtin('search.ripgrep', () => ({ pattern: 'x', glob: ['--pre=./evil.sh'], paths: ['data'] })), check: matches([]) },
        { what: 'search.ripgrep (rg) with the globs --pre, PROGRAM', code: null, exit: 0, attempt: builtin('search.ripgrep', () => ({ pattern: 'x', glob: ['--pre', './evil.sh'], paths: ['data'] })), check: matches([]) },
        {
          what: 'search.ripgrep (rg) with a path named --pre=PROGRAM',
          code: null,
          exit: 0,
          attempt: builtin('search.ripgrep', () => ({ pattern: 'x', paths: ['--pre=evil.sh'] })),
          check: matches(['--pre=evil.sh']),
        },
      ]
    : []),
  ...['--output=PWNED', '-c', '--ext-diff', 'HEAD --output=PWNED'].map(
    (commit): Attack => ({
      what: `git.diff with the commit ${JSON.stringify(commit)}`,
      code: 'SCHEMA_VALUE_INVALID',
      exit: 2,
      attempt: builtin('git.diff', (sc) => ({ target: 'commit', commit: commit.replace('PWNED', pwned(sc)) })),
    }),
  ),
  {
    what: 'shell.exec_safe with shell syntax in argv: passed as data, no shell',
    code: null,
    exit: 0,
    attempt: builtin('shell.exec_safe', (sc) => ({ argv: ['echo', `$HOME; touch ${pwned(sc)}`, '`id`'] }), 'auto'),
    check: (r, sc) => assert.equal((r.output as { stdout: string }).stdout, `$HOME; touch ${pwned(sc)} \`id\`\n`),
  },
  {
    what: 'shell.exec_safe sort -o FILE outside the write grant: the sandbox has no such file',
    code: null,
    exit: 0,
    attempt: builtin('shell.exec_safe', (sc) => ({ argv: ['sort', '-o', pwned(sc), 'data/a.txt'] }), 'auto'),
    check: (r) => {
      assert.notEqual((r.output as { exit_code: number }).exit_code, 0);
      assert.equal((JSON.parse(r.stdout) as { sandbox: string }).sandbox, 'bwrap');
    },
  },
];

describe('exec and argument injection: options smuggled through arguments never reach a program as options', () => {
  const s = scratch('skillctl-attack-exec-');
  before(async () => {
    await mkdir(join(s.work, 'data'));
    await writeFile(join(s.work, 'data', 'a.txt'), 'b\na\n');
    await writeFile(join(s.work, '--pre=evil.sh'), 'x marks the spot\n');
    await writeFile(join(s.work, 'evil.sh'), `#!/bin/sh\ntouch '${pwned(s)}'\ncat\n`);
    await chmod(join(s.work, 'evil.sh'), 0o755);
    await writeFile(
      join(s.work, POLICY),
      [
        'version: 1',
        'permissions:',
        '  fs.read: [.]',
        '  exec:',
        '    - command: rg',
        '      deny_args: ["--pre*", "--search-zip", "-z*"]',
        '    - command: git',
        '      deny_args: ["-c*", "--config-env*", "--output*", "--ext-diff", "--exec-path*"]',
        '    - sort',
        '    - echo',
        '',
      ].join('\n'),
    );
    await writeFile(join(s.work, ALLOWLIST), 'version: 1\npermissions:\n  fs.read: [.]\n  exec:\n    - command: git\n      args: [status, --porcelain]\n');
  });

  attackRows([...smuggled, ...viaInput], s);

  it('git.diff called directly (its input_schema bypassed) refuses an option-like commit: SKILL_REQUEST_INVALID', async () => {
    const { ctx } = await skillContext('git.diff', { cwd: s.work, policy: { read: ['.'], exec: ['git'] }, sandbox: 'none' });
    for (const commit of ['--output=x', '-c', '--ext-diff']) {
      assert.equal(errorCode(await runSkill('git.diff', { target: 'commit', commit }, ctx, { unchecked: true })), 'SKILL_REQUEST_INVALID', commit);
    }
  });
});
