/**
 * Hostile repositories whose configuration or attributes name a program (a trap): filters,
 * textconv and diff drivers, fsmonitor, pagers, gpg, hooks, editors, under every kind of name.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../helpers/git-repo.js';
import { attributes, base, config, defineFilter, type Attack, type Encoding } from './git-traps.js';

function filterNamed(name: string, attr: string, enc: Encoding = 'utf8'): Attack['build'] {
  return async (s) => {
    const commit = await base(s);
    await defineFilter(s, name, attr, enc);
    return { commit };
  };
}

/** A filter defined after `kib` keys of about 1 KiB each. */
function filterAfter(kib: number): Attack['build'] {
  return async (s) => {
    const commit = await base(s);
    await config(s, `[pad]\n${`\tk = ${'x'.repeat(1000)}\n`.repeat(kib)}`);
    await defineFilter(s, 'late', 'late');
    return { commit };
  };
}

/** A signed commit (a syntactically plausible signature), so that verifying it would run gpg. */
function signedCommit(repo: string): string {
  const tree = git(repo, 'rev-parse', 'HEAD^{tree}').trim();
  const parent = git(repo, 'rev-parse', 'HEAD').trim();
  const body = [`tree ${tree}`, `parent ${parent}`, 'author T <t@example.invalid> 1767225600 +0000', 'committer T <t@example.invalid> 1767225600 +0000'];
  const sig = ['gpgsig -----BEGIN PGP SIGNATURE-----', ' ', ' x', ' -----END PGP SIGNATURE-----'];
  const input = [...body, ...sig, '', 'signed', ''].join('\n');
  return execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: repo, input, encoding: 'utf8' }).trim();
}

export const PROGRAM_ATTACKS: readonly Attack[] = [
  // git splits `-c filter.a=b.clean=` at the first `=`: the override named another key.
  { name: 'a filter whose name contains =', build: filterNamed('a=b', 'a=b'), expect: 'ok' },
  { name: 'a filter whose name contains dots', build: filterNamed('x.y.clean', 'x.y.clean'), expect: 'ok' },
  { name: 'a filter whose name holds quotes and a backslash', build: filterNamed(`q\\"u'o\\\\te`, `q"u'o\\te`), expect: 'ok' },
  // git cannot read a configuration with a raw newline in a section name: nothing may run.
  { name: 'a filter whose name holds a newline', build: filterNamed('a\nb', 'a'), expect: 'SKILL_GIT_CONFIG_REFUSED' },
  // The listing is bytes: a name that is not UTF-8 cannot be passed back in the environment.
  { name: 'a filter whose name is not UTF-8', build: filterNamed('\u00ff', '\u00ff', 'latin1'), expect: 'SKILL_GIT_CONFIG_REFUSED' },
  {
    // Section and key names are case-insensitive (git lowercases them); subsections are not.
    name: 'filters whose names differ only in case, in both section syntaxes',
    build: async (s) => {
      const commit = await base(s);
      const t = await s.trap('case');
      await config(s, `[Filter "Evil"]\n\tCLEAN = ${t}\n[filter "evil"]\n\tClean = ${t}\n[FILTER.EVIL2]\n\tclean = ${t}\n`);
      await attributes(s, `a.txt filter=Evil\nb.txt filter=evil\n*.txt filter=evil2\n`);
      return { commit };
    },
    expect: 'ok',
  },
  // Until now the listing was cut at 1 MiB and whatever came after was never neutralised.
  { name: 'a filter defined after 1 MiB of configuration', build: filterAfter(1200), expect: 'ok' },
  { name: 'a configuration larger than the bound is refused, not cut', build: filterAfter(5200), expect: 'SKILL_GIT_CONFIG_REFUSED' },
  {
    name: 'a textconv driver named in .gitattributes',
    build: async (s) => {
      const commit = await base(s);
      await config(s, `[diff "tc"]\n\ttextconv = ${await s.trap('textconv')}\n\tcachetextconv = true\n`);
      await attributes(s, '*.txt diff=tc\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'diff.external and a diff driver command',
    build: async (s) => {
      const commit = await base(s);
      await config(s, `[diff]\n\texternal = ${await s.trap('external')}\n[diff "d=x"]\n\tcommand = ${await s.trap('command')}\n`);
      await attributes(s, '*.txt diff=d=x\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'core.fsmonitor set to a script',
    build: async (s) => {
      const commit = await base(s);
      await config(s, `[core]\n\tfsmonitor = ${await s.trap('fsmonitor')}\n\tfsmonitorHookVersion = 2\n`);
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'core.pager and pager.<command>',
    build: async (s) => {
      const commit = await base(s);
      const t = await s.trap('pager');
      await config(s, `[core]\n\tpager = ${t}\n[pager]\n\tstatus = ${t}\n\tdiff = ${t}\n\tshow = ${t}\n`);
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'gpg.program with a signed commit shown by the commit target',
    build: async (s) => {
      await base(s);
      const t = await s.trap('gpg');
      await config(s, `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${t}\n[gpg "ssh"]\n\tprogram = ${t}\n[gpg "x509"]\n\tprogram = ${t}\n`);
      return { runs: [{ skill: 'git.diff', input: { target: 'commit', commit: signedCommit(s.repo) } }] };
    },
    expect: 'ok',
  },
  {
    name: 'include.path naming a second file that defines a filter',
    build: async (s) => {
      const commit = await base(s);
      await writeFile(join(s.repo, 'extra.cfg'), `[filter "inc=luded"]\n\tclean = ${await s.trap('include')}\n`);
      await config(s, '[include]\n\tpath = ../extra.cfg\n');
      await attributes(s, '*.txt filter=inc=luded\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'includeIf and the worktree configuration defining filters',
    build: async (s) => {
      const commit = await base(s);
      await writeFile(join(s.repo, '.git', 'cond.cfg'), `[filter "cond"]\n\tclean = ${await s.trap('includeif')}\n`);
      await config(s, '[includeIf "gitdir:/"]\n\tpath = cond.cfg\n[extensions]\n\tworktreeConfig = true\n');
      await writeFile(join(s.repo, '.git', 'config.worktree'), `[filter "wt"]\n\tprocess = ${await s.trap('worktree')}\n`);
      await attributes(s, 'a.txt filter=cond\nb.txt filter=wt\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: 'hooks, editors, merge drivers and other commands git.status and git.diff never need',
    build: async (s) => {
      const commit = await base(s);
      const t = await s.trap('misc');
      const hooks = join(s.repo, '.git', 'hooks');
      await mkdir(hooks, { recursive: true });
      for (const h of ['post-index-change', 'pre-commit', 'reference-transaction', 'fsmonitor-watchman']) await writeFile(join(hooks, h), `#!/bin/sh\nexec ${t}\n`, { mode: 0o755 });
      await config(s, `[core]\n\teditor = ${t}\n[sequence]\n\teditor = ${t}\n[merge "m"]\n\tdriver = ${t}\n[difftool "x"]\n\tcmd = ${t}\n[trailer "x"]\n\tcommand = ${t}\n[hook "x"]\n\tcommand = ${t}\n\tevent = pre-commit\n[status]\n\tsubmoduleSummary = true\n`);
      await attributes(s, '*.txt merge=m\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    // The policy passes GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT: both are dropped all the same.
    name: 'configuration smuggled through GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT',
    build: async (s) => {
      const commit = await base(s);
      const t = await s.trap('env');
      await attributes(s, '*.txt filter=envf diff=envd\n');
      const env = {
        GIT_CONFIG_PARAMETERS: `'filter.envf.clean'='${t}' 'core.fsmonitor'='${t}'`,
        GIT_CONFIG_COUNT: '2',
        GIT_CONFIG_KEY_0: 'filter.envf.process',
        GIT_CONFIG_VALUE_0: t,
        GIT_CONFIG_KEY_1: 'core.pager',
        GIT_CONFIG_VALUE_1: t,
        GIT_EXTERNAL_DIFF: t,
      };
      return { commit, env };
    },
    expect: 'ok',
  },
  {
    // A driver named only in attributes runs nothing, not even a program called like it.
    name: 'attributes naming drivers the configuration does not define',
    build: async (s) => {
      const commit = await base(s);
      const bin = join(s.root, 'bin');
      await mkdir(bin);
      const t = await s.trap('undefined');
      for (const name of ['ghost', 'git-ghost', 'ghost.clean']) await writeFile(join(bin, name), `#!/bin/sh\nexec ${t}\n`, { mode: 0o755 });
      await attributes(s, '*.txt filter=ghost diff=ghost merge=ghost\n');
      return { commit, env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } };
    },
    expect: 'ok',
  },
];
