// Threat: a home's own start-up and login files rewritten by a skill granted the home (SSH keys and client configuration, GnuPG's programs, the XDG configuration git, fish, systemd, direnv and a desktop obey, programs on PATH, Python's user site, kubectl's and docker's configuration).
// A policy that lets skills write a whole home (or ~/.config) is one a user may write for a
// dotfiles or setup skill. Such a skill must still not add a key to ~/.ssh/authorized_keys (a
// login), a ProxyCommand to ~/.ssh/config, a filter to ~/.config/git/config, a systemd user unit
// or an autostart entry (programs started at the next login): they run outside every sandbox.
// Each runtime tries, granted to write the scratch home: a provenact module, a built-in
// (fs.write_patch), a WASI command (renames ~/.config aside) and a python process in bubblewrap,
// for which the home is a second root (its protected names mounted read-only or, when absent,
// removed after the run). Before, the gate refused ~/.bashrc but not these, and bubblewrap held
// no name in a home that was not the project root. The home's own paths (a `git` planted in
// ~/.local/bin, ahead of /usr/bin on the default PATH; a `.pth` in Python's user site, run at every
// `python` start; ~/.kube/config's exec plugins) were writable by every runtime until they were
// listed (HOME_PROTECTED_PATHS): their names are too common to hold in every directory.
// HOME may name the home through a link (FreeBSD's /home -> /usr/home, a home on another disk)
// while the policy names its real path (or a parent, as `.` here): the home's own paths are the
// run's all the same. Before, they were compared with the grants as spelt, and left out.
// The default ~/.bashrc of Debian and Ubuntu sources ~/.bash_aliases, Fedora's and RHEL's every
// file in ~/.bashrc.d/: both run in every new shell, as ~/.bashrc does, and were writable; so
// were zsh's ~/.zlogout (run as a login shell exits, as ~/.bash_logout is) and csh's ~/.cshrc.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { createPatch as create, hostAttacks, NOTCAPABLE, writeHostAttackBundles } from '../helpers/host-attacks.js';

const KEYS = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ0000 user@laptop\n';
const GITCONFIG = '[user]\n\tname = U\n';
/** The home the runs are started with: inside the project, so that the policy's `.` grants it. */
const home = (s: Scratch): string => join(s.work, 'home');
/** What the attacks would plant, relative to the home. */
const PLANTED = ['.bash_aliases', '.bashrc.d', '.zlogout', '.cshrc', '.ssh/config', '.ssh/rc', '.config/systemd', '.config/autostart', '.config/fish', '.gnupg/gpg-agent.conf', 'config-aside', '.tmux.conf', '.local/bin/git', '.local/lib', '.docker'];
const KUBECONFIG = 'apiVersion: v1\nkind: Config\n';
/** A link to the home, outside the project: HOME spelt otherwise than the policy's grant. */
const homeLink = (s: Scratch): string => join(s.root, 'home-link');

describe('threat: a home rewritten by a skill granted to write it', () => {
  const sc = scratch('skillctl-home-');

  before(async () => {
    await mkdir(join(home(sc), '.ssh'), { recursive: true });
    await writeFile(join(home(sc), '.ssh', 'authorized_keys'), KEYS);
    await mkdir(join(home(sc), '.config', 'git'), { recursive: true });
    await writeFile(join(home(sc), '.config', 'git', 'config'), GITCONFIG);
    await mkdir(join(home(sc), '.gnupg'));
    await mkdir(join(home(sc), '.local', 'bin'), { recursive: true });
    await mkdir(join(home(sc), '.kube'));
    await writeFile(join(home(sc), '.kube', 'config'), KUBECONFIG);
    await symlink(home(sc), homeLink(sc));
    await writeHostAttackBundles(sc.work, ['rename', 'home/.config', 'home/config-aside', 'mkdir', 'home/.config/fish']);
  });

  const untouched = async (_r: Ran, s: Scratch): Promise<void> => {
    assert.equal(await readFile(join(home(s), '.ssh', 'authorized_keys'), 'utf8'), KEYS);
    assert.equal(await readFile(join(home(s), '.config', 'git', 'config'), 'utf8'), GITCONFIG);
    assert.equal(await readFile(join(home(s), '.kube', 'config'), 'utf8'), KUBECONFIG);
    for (const p of PLANTED) assert.equal(existsSync(join(home(s), p)), false, p);
  };
  // The python process's paths are in the home, and it is started with HOME naming it.
  const { write, patch, refused, wasi, procAnswers, procDenied } = hostAttacks(untouched, { dir: home, env: (s) => ({ HOME: home(s) }) });
  const linked = hostAttacks(untouched, { dir: home, env: (s) => ({ HOME: homeLink(s) }) });

  const rows: Attack[] = [
    refused('provenact fs_write_file adds a key to ~/.ssh/authorized_keys (a login)', write('home/.ssh/authorized_keys')),
    refused('provenact fs_write_file rewrites ~/.config/git/config (a filter is a program git runs)', write('home/.config/git/config')),
    refused('fs.write_patch creates ~/.ssh/config with a ProxyCommand', patch(create('home/.ssh/config', 'ProxyCommand sh -c "touch PWNED"'))),
    refused('fs.write_patch creates a systemd user unit (started at the next login)', patch(create('home/.config/systemd/user/x.service', 'ExecStart=/bin/touch PWNED'))),
    refused("fs.write_patch creates a desktop autostart entry", patch(create('home/.config/autostart/x.desktop', 'Exec=touch PWNED'))),
    refused("fs.write_patch sets gpg-agent's pinentry-program", patch(create('home/.gnupg/gpg-agent.conf', 'pinentry-program /tmp/x'))),
    refused("fs.write_patch creates ~/.bash_aliases (Debian's and Ubuntu's ~/.bashrc sources it)", patch(create('home/.bash_aliases', 'touch PWNED'))),
    refused("fs.write_patch creates a file in ~/.bashrc.d/ (Fedora's and RHEL's ~/.bashrc sources each)", patch(create('home/.bashrc.d/x.sh', 'touch PWNED'))),
    refused("fs.write_patch creates ~/.zlogout (zsh runs it as a login shell exits)", patch(create('home/.zlogout', 'touch PWNED'))),
    refused("fs.write_patch creates ~/.cshrc (csh's and tcsh's start-up)", patch(create('home/.cshrc', 'touch PWNED'))),
    procDenied('a process in bubblewrap creates ~/.bash_aliases and ~/.bashrc.d/: removed, the run denied', [
      ['write', '.bash_aliases', 'touch PWNED\n'],
      ['mkdir', '.bashrc.d'],
      ['write', '.bashrc.d/x.sh', 'touch PWNED\n'],
    ]),
    refused('fs.write_patch creates ~/.tmux.conf (run-shell on start)', patch(create('home/.tmux.conf', 'run-shell "touch PWNED"'))),
    refused('provenact fs_write_file plants ~/.local/bin/git (ahead of /usr/bin on the default PATH)', write('home/.local/bin/git')),
    refused("fs.write_patch plants a .pth in Python's user site (run at every python start)", patch(create('home/.local/lib/python3.11/site-packages/x.pth', 'import os; os.system("touch PWNED")'))),
    refused('fs.write_patch creates a docker CLI plugin (run as a docker subcommand)', patch(create('home/.docker/cli-plugins/docker-x', '#!/bin/sh\ntouch PWNED'))),
    wasi('WASI: ~/.config renamed aside, ~/.config/fish created (NOTCAPABLE each)', [NOTCAPABLE, NOTCAPABLE]),
    procAnswers(
      'a process in bubblewrap rewrites ~/.ssh/authorized_keys and ~/.config/git/config (read-only mounts)',
      [
        ['write', '.ssh/authorized_keys', 'ssh-ed25519 AAAA attacker\n'],
        ['write', '.config/git/config', '[filter "x"]\n\tclean = touch PWNED\n'],
      ],
      'EROFS,EROFS',
    ),
    procAnswers(
      "a process in bubblewrap plants ~/.local/bin/git and rewrites ~/.kube/config's exec plugin (read-only mounts)",
      [
        ['write', '.local/bin/git', '#!/bin/sh\ntouch PWNED\n'],
        ['write', '.kube/config', 'users:\n- user:\n    exec: {command: /tmp/x}\n'],
      ],
      'EROFS,EROFS',
    ),
    refused('HOME a link to the home the policy grants: fs.write_patch plants ~/.local/bin/git', linked.patch(create('home/.local/bin/git', '#!/bin/sh\ntouch PWNED'))),
    linked.procAnswers("HOME a link to the home the policy grants: a process in bubblewrap plants ~/.local/bin/git and rewrites ~/.kube/config (read-only mounts)", [
      ['write', '.local/bin/git', '#!/bin/sh\ntouch PWNED\n'],
      ['write', '.kube/config', 'users:\n- user:\n    exec: {command: /tmp/x}\n'],
    ], 'EROFS,EROFS'),
    procDenied("a process in bubblewrap creates Python's user site with a .pth: removed, the run denied", [
      ['mkdir', '.local/lib'],
      ['write', '.local/lib/x.pth', 'import os; os.system("touch PWNED")\n'],
    ]),
    procDenied('a process in bubblewrap creates a systemd user unit, which no mount can hold: removed, the run denied', [
      ['mkdir', '.config/systemd'],
      ['write', '.config/systemd/x.service', '[Service]\nExecStart=/bin/touch PWNED\n'],
    ]),
    procAnswers(
      "the same process writes the home's ordinary files and other programs' settings",
      [
        ['write', 'notes.txt', 'mine'],
        ['mkdir', '.config/gh'],
        ['write', '.config/gh/hosts.yml', 'github.com: {}\n'],
      ],
      'ok,ok,ok',
    ),
  ];
  attackRows(rows, sc);
});
