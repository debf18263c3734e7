/**
 * Hostile repositories that send git outside the grant (a gitdir file, core.worktree, includes,
 * alternates, a symlinked object store) or to a remote (a partial clone's lazy fetch).
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git, seedRepo } from '../helpers/git-repo.js';
import { attributes, base, config, type Attack, type Scratch, type Setup } from './git-traps.js';

/** A clone missing its blobs (`--filter=blob:none`), whose promisor remote is `url`. */
async function partialClone(s: Scratch, url: (trap: string) => string, extra: (trap: string) => string): Promise<Setup> {
  const src = join(s.root, 'src');
  const head = await seedRepo(src);
  git(src, 'config', 'uploadpack.allowFilter', 'true');
  // What `git clone --filter=blob:none --no-checkout` does, in the directory the tripwire is in.
  git(s.repo, 'init', '-q', '-b', 'main');
  git(s.repo, 'config', 'core.repositoryFormatVersion', '1');
  git(s.repo, 'config', 'extensions.partialClone', 'origin');
  git(s.repo, 'remote', 'add', 'origin', `file://${src}`);
  git(s.repo, 'config', 'remote.origin.promisor', 'true');
  git(s.repo, 'config', 'remote.origin.partialCloneFilter', 'blob:none');
  git(s.repo, '-c', 'protocol.file.allow=always', 'fetch', '-q', '--filter=blob:none', 'origin');
  git(s.repo, 'update-ref', 'refs/heads/main', head);
  const t = await s.trap('fetch', false);
  git(s.repo, 'config', 'remote.origin.url', url(t));
  await config(s, extra(t));
  // Trees are there, blobs are not: a diff that needs one fails instead of fetching it.
  return {
    runs: [
      { skill: 'git.status', input: {} },
      { skill: 'git.diff', input: { target: 'working' } },
      { skill: 'git.diff', input: { target: 'staged' }, expect: 'SKILL_GIT_FAILED' },
      { skill: 'git.diff', input: { target: 'commit', commit: head }, expect: 'SKILL_GIT_FAILED' },
    ],
  };
}

export const PLACE_ATTACKS: readonly Attack[] = [
  {
    // With --sandbox none git would read a file outside the grant; bubblewrap does not show it.
    name: 'include.path naming a file outside the grant',
    build: async (s) => {
      const commit = await base(s);
      await writeFile(join(s.outside, 'evil.cfg'), `[filter "out"]\n\tclean = ${await s.trap('include-outside')}\n`);
      await config(s, `[include]\n\tpath = ${join(s.outside, 'evil.cfg')}\n`);
      await attributes(s, '*.txt filter=out\n');
      return { commit };
    },
    expect: { none: 'POLICY_PATH_DENIED', bwrap: 'ok' },
  },
  {
    name: '.git as a gitdir file pointing outside the grant',
    build: async (s) => {
      const gitdir = join(s.outside, 'gitdir');
      git(s.root, 'init', '-q', '-b', 'main', `--separate-git-dir=${gitdir}`, s.repo);
      await writeFile(join(s.repo, 'a.txt'), 'a\n');
      await writeFile(join(gitdir, 'config'), `[filter "f"]\n\tclean = ${await s.trap('gitdir')}\n`, { flag: 'a' });
      await attributes(s, '*.txt filter=f\n');
      return { runs: [{ skill: 'git.status', input: {} }, { skill: 'git.diff', input: { target: 'working' } }] };
    },
    tripDir: (repo) => join(repo, 'traps'),
    expect: { none: 'POLICY_PATH_DENIED', bwrap: 'SKILL_NOT_A_REPOSITORY' },
  },
  {
    name: 'core.worktree pointing outside the grant',
    build: async (s) => {
      const commit = await base(s);
      await writeFile(join(s.outside, 'secret.txt'), 'secret\n');
      await config(s, `[core]\n\tworktree = ${s.outside}\n`);
      return { commit };
    },
    expect: 'POLICY_PATH_DENIED',
  },
  {
    // Objects borrowed from a repository outside the grant: git.diff would print its blobs.
    name: 'objects/info/alternates naming an object store outside the grant',
    build: async (s) => {
      const other = join(s.outside, 'other');
      await seedRepo(other);
      const commit = await base(s);
      await writeFile(join(s.repo, '.git', 'objects', 'info', 'alternates'), `# comment\n\n${join(other, '.git', 'objects')}\n`);
      return { commit };
    },
    expect: 'POLICY_PATH_DENIED',
  },
  {
    name: 'alternates naming an object store inside the grant are followed',
    build: async (s) => {
      const commit = await base(s);
      const shared = join(s.repo, 'vendor');
      await seedRepo(shared);
      await writeFile(join(s.repo, '.git', 'objects', 'info', 'alternates'), '../../vendor/.git/objects\n');
      return { commit };
    },
    expect: 'ok',
  },
  {
    name: '.git/objects as a symlink to an object store outside the grant',
    build: async (s) => {
      const commit = await base(s);
      const moved = join(s.outside, 'objects');
      await rename(join(s.repo, '.git', 'objects'), moved);
      await symlink(moved, join(s.repo, '.git', 'objects'));
      return { commit };
    },
    // Without its object store git does not take the directory for a repository.
    expect: { none: 'POLICY_PATH_DENIED', bwrap: 'SKILL_NOT_A_REPOSITORY' },
  },
  {
    name: 'nested alternates past the depth git follows',
    build: async (s) => {
      const commit = await base(s);
      for (let i = 0; i <= 6; i++) {
        const store = i === 0 ? join(s.repo, '.git', 'objects') : join(s.repo, 'stores', String(i));
        await mkdir(join(store, 'info'), { recursive: true });
        await writeFile(join(store, 'info', 'alternates'), `${join(s.repo, 'stores', String(i + 1))}\n`);
      }
      return { commit };
    },
    expect: 'SKILL_GIT_CONFIG_REFUSED',
  },
  {
    // protocol.<name>.allow outranks protocol.allow: a lazy fetch ran the ext:: command.
    name: 'a partial clone whose promisor remote is an ext:: command',
    build: (s) => partialClone(s, (t) => `ext::${t}`, () => '[protocol "ext"]\n\tallow = always\n'),
    expect: 'ok',
  },
  {
    name: 'a partial clone whose file:// remote names an upload-pack program',
    build: (s) => partialClone(s, () => `file://${join(s.root, 'src')}`, (t) => `[remote "origin"]\n\tuploadpack = ${t}\n[protocol "file"]\n\tallow = always\n`),
    expect: 'ok',
  },
  {
    name: 'a partial clone over ssh with core.sshCommand, askpass and a credential helper',
    build: (s) =>
      partialClone(
        s,
        () => 'ssh://git@example.invalid/x.git',
        (t) => `[core]\n\tsshCommand = ${t}\n\taskPass = ${t}\n[credential]\n\thelper = !${t}\n[credential "ssh://example.invalid"]\n\thelper = !${t}\n[protocol "ssh"]\n\tallow = always\n`,
      ),
    expect: 'ok',
  },
];
