/**
 * The names protected in every directory (protected.ts says why each kind is): files by name,
 * directory paths by their trailing segments, and entries that may not be created, renamed or
 * removed. Constants a reviewer can read, apart from the rules that apply them.
 */

/**
 * How the names of policy files end (`ci.policy.yaml`): the nested-root and `--policy` checks
 * read those a project keeps at its root and in its `.skillctl/` as policies its runs may be
 * started under.
 */
export const POLICY_SUFFIXES: readonly string[] = ['.policy.yaml', '.policy.yml', '.policy.json'];

/** File names protected in every directory. */
export const PROTECTED_FILE_NAMES: readonly string[] = [
  // policies, locks, keys and signatures: what the next run trusts
  'skillctl.policy.yaml',
  'skillctl.policy.yml',
  'skillctl.policy.json',
  'skills.lock.json',
  '.skills.lock.json.lck',
  'public-keys.json',
  'signatures.json',
  // shell and tool start-up files (.bash_aliases: the default ~/.bashrc of Debian and Ubuntu
  // sources it in every interactive shell)
  '.bashrc',
  '.bash_aliases',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  // csh and tcsh: read by every shell, and by login shells as they start and end
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
  '.gitconfig',
  '.gitmodules',
  '.ripgreprc',
  // what a graphical or PAM login, tmux and vim run or obey on start (vim's .exrc in a project too,
  // with 'exrc' set): shell commands, each
  '.xprofile',
  '.xsessionrc',
  '.xinitrc',
  '.pam_environment',
  '.tmux.conf',
  '.vimrc',
  '.gvimrc',
  '.exrc',
  // what R, irb and pry run on start from the working directory as well as the home, and gdb and
  // lldb once the user allowed local init files: code and commands, each
  '.Rprofile',
  '.irbrc',
  '.pryrc',
  '.gdbinit',
  '.lldbinit',
  // what agent hosts read for the MCP servers (programs) they start on their own
  '.mcp.json',
  '.claude.json',
  '.mcp-settings.json',
  // project configuration of agent hosts kept in one file: opencode's and Crush's MCP servers (a
  // local server is a command), aider's lint-cmd and test-cmd (run after every edit), a dev
  // container's initializeCommand (run on the host when the folder is reopened in the container)
  'opencode.json',
  'opencode.jsonc',
  '.crush.json',
  'crush.json',
  '.aider.conf.yml',
  '.devcontainer.json',
  // package managers' configuration, read by every install and script run: `node-options`,
  // `script-shell` (.npmrc) and `yarnPath` (.yarnrc.yml) name code that npm or yarn then runs
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  // build tools' hooks and plugins, loaded by every install or build of the folder: pnpm requires
  // .pnpmfile.cjs on install, bun runs bunfig.toml's preload before every `bun run` and `bun test`
  // (.bunfig.toml in a home), Bazel obeys .bazelrc (workspace_status_command is a program every
  // build runs), MSBuild imports Directory.Build.props and .targets (targets run commands) from
  // every directory above a project and reads Directory.Build.rsp as arguments (-logger loads an
  // assembly)
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.bunfig.toml',
  '.bazelrc',
  'Directory.Build.props',
  'Directory.Build.targets',
  'Directory.Build.rsp',
  // mise's project configuration: [hooks] (enter, cd, preinstall, postinstall) and env scripts run
  // on entering the folder or installing. mise trusts a file by its path, not its content, so a
  // rewritten file stays trusted. (direnv's .envrc is not here: direnv asks again after any change.)
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  // commit hooks managed outside .git/hooks: pre-commit (which runs skillctl's own verify-pins
  // hook) and lefthook run the commands these files name on the next commit
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook-local.yml',
];

/**
 * Directory paths (as trailing segments) whose whole content is protected, in every directory.
 * The first segment of each is a protected entry name (PROTECTED_ENTRY_NAMES): a path protected
 * by its segments moves with its directory, but only while the name that makes it protected stays.
 */
export const PROTECTED_DIRS: readonly (readonly string[])[] = [
  ['.skillctl'],
  // Agent hosts' and editors' project configuration: hooks, MCP servers and tasks that the host
  // runs on its own (Claude Code's hooks on every tool call, a VS Code task run when the folder
  // opens), and the allow-lists that let an agent run commands without asking. Claude Code's own
  // permission layer and sandbox-runtime keep the same directories from automatic edits.
  ['.claude'],
  // The skills agent hosts load (the cross-client folder; .claude/skills is in .claude): a planted
  // SKILL.md's `allowed-tools` lets the host's agent run commands without asking.
  ['.agents'],
  ['.vscode'],
  ['.idea'],
  ['.cursor'],
  ['.gemini'],
  ['.codex'],
  // Other agent hosts' project folders, each with MCP servers, hooks or plugins it runs on its own:
  // Roo Code (.roo/mcp.json), Kiro (hooks that run shell commands, .kiro/settings/mcp.json),
  // Continue (.continue/mcpServers/), Amazon Q (.amazonq/mcp.json), Zed (language servers and
  // context servers in .zed/settings.json: Zed trusts a folder, not what its settings say),
  // Windsurf (.windsurf/hooks.json), Qwen Code and Factory (settings.json: MCP servers, hooks),
  // opencode (.opencode/plugins/ loaded on start). The rules and steering text they also hold go
  // with them: skills cannot write those either.
  ['.roo'],
  ['.kiro'],
  ['.continue'],
  ['.amazonq'],
  ['.zed'],
  ['.windsurf'],
  ['.qwen'],
  ['.factory'],
  ['.opencode'],
  // A dev container's initializeCommand runs on the host; its other commands, features and
  // Dockerfile decide what runs in the container the person then works in.
  ['.devcontainer'],
  // Maven loads .mvn/extensions.xml's core extensions into every build and reads jvm.config and
  // maven.config as its own arguments; the wrapper downloads and runs the distribution its
  // properties name. Nothing in .mvn is written by a build.
  ['.mvn'],
  // mise's configuration folder (.mise/config.toml), the same as mise.toml
  ['.mise'],
  // Cargo obeys .cargo/config.toml (and the older .cargo/config) in the working directory and
  // every directory above: build.rustc-wrapper, a target's runner and linker are programs cargo
  // runs. Only those two: in a home, .cargo is CARGO_HOME, where cargo writes its registry,
  // checkouts and installed programs.
  ['.cargo', 'config.toml'],
  ['.cargo', 'config'],
  // The yarn release .yarnrc.yml's yarnPath names (every `yarn` runs it) and the plugins its
  // `plugins` list loads: a file replaced there runs on the next yarn. Only those two: `yarn
  // install` writes .yarn/cache, .yarn/unplugged and .yarn/install-state.gz.
  ['.yarn', 'releases'],
  ['.yarn', 'plugins'],
  // A home's own: SSH's authorized keys (a login), its client configuration (ProxyCommand and
  // LocalCommand are programs) and rc (run on every login); GnuPG's configuration files
  // (pinentry-program, and the programs a signing commit starts through gpg); and the XDG
  // configuration that git, fish, systemd's user units, a desktop's autostart, direnv, mise,
  // neovim and tmux obey on their own. Only these: other programs keep their settings and
  // caches under ~/.config too.
  ['.ssh'],
  ['.gnupg', 'gpg.conf'],
  ['.gnupg', 'gpg-agent.conf'],
  ['.gnupg', 'scdaemon.conf'],
  ['.gnupg', 'dirmngr.conf'],
  ['.config', 'git'],
  ['.config', 'fish'],
  ['.config', 'systemd'],
  ['.config', 'autostart'],
  ['.config', 'environment.d'],
  ['.config', 'direnv'],
  ['.config', 'mise'],
  ['.config', 'mise.toml'],
  ['.config', 'nvim'],
  ['.config', 'tmux'],
  // Hook folders that git's core.hooksPath points at (husky's, and the usual name of a project's
  // own): programs git runs on commit and push
  ['.husky'],
  ['.githooks'],
  // What git runs, or reads to learn what to run, from a repository's git directory.
  ['.git', 'hooks'], // programs git runs on commit, checkout, merge and push
  ['.git', 'config'], // core.fsmonitor, core.pager, aliases, filter, diff and merge drivers: programs
  ['.git', 'config.worktree'], // more config, read once extensions.worktreeConfig is set (git sparse-checkout sets it)
  ['.git', 'commondir'], // names another directory whose config and hooks git then obeys instead
  ['.git', 'modules'], // submodules' git directories, each with a config and hooks of its own
  ['.git', 'worktrees'], // linked work trees' git directories: each names its common directory, and may hold config.worktree
];

/**
 * Names protected as entries, in every directory: no entry by such a name (a file or a directory)
 * may be created, replaced, renamed or removed, while what is inside a directory by that name
 * stays as writable as its grant makes it (skills that run git write `.git/objects`, `.git/refs`
 * and `.git/index`). `.git`: renamed aside, `.git/config` is an ordinary path (rename, rewrite,
 * rename back); planted in a subdirectory, as a directory or as a file (`gitdir: ../elsewhere`),
 * it makes that subdirectory a repository whose config the next `git status` there obeys.
 * `.cargo`, `.yarn`, `.config` and `.gnupg` hold protected paths among what their tools write
 * (above), and would lose them the same way if they could be renamed aside and back.
 */
export const PROTECTED_ENTRY_NAMES: readonly string[] = ['.git', '.cargo', '.yarn', '.config', '.gnupg'];

/**
 * Paths protected only in the user's home (relative to it), for names too common to hold in
 * every directory (a project's own `bin/` or `lib/`): each is a place a program outside every
 * sandbox runs code from. Directories on `PATH` ahead of the system's in Debian's and Ubuntu's
 * default `.profile` and in systemd's user `PATH` (a `git` planted there runs for every `git`);
 * `pip install --user`'s site-packages (a `.pth` line or `usercustomize.py` runs at every Python
 * start); systemd's other user-unit folder; desktop entries (an `Exec` run when a file they
 * claim is opened); Node's global folders (`require` of a name no `node_modules` holds); the
 * docker, podman, kubectl and AWS configuration that names programs every command of theirs runs
 * (credential helpers and CLI plugins, OCI runtimes and hooks, exec credential plugins,
 * `credential_process`); pip's
 * configuration (the index every `pip install` takes code from); what Emacs, psql and sqlite3
 * run on start; and editors' and agent hosts' user settings that name programs (VS Code's and
 * its forks' terminal profiles and MCP servers, Zed's language and context servers, opencode's
 * plugins, goose's extensions, Windsurf's MCP servers). A skill that must install programs for
 * the user (`pip install --user`) cannot: it installs into a folder of its grant instead.
 */
export const HOME_PROTECTED_PATHS: readonly string[] = [
  // the default ~/.bashrc of Fedora and RHEL sources every file in it, in every interactive shell
  '.bashrc.d',
  'bin',
  '.local/bin',
  // the program folders rustup's, Go's, Deno's and Bun's installers put on PATH
  '.cargo/bin',
  'go/bin',
  '.deno/bin',
  '.bun/bin',
  '.local/lib',
  '.local/share/systemd',
  '.local/share/applications',
  '.node_modules',
  '.node_libraries',
  '.docker',
  // podman's containers.conf names OCI runtimes and hook directories: programs the next container run starts
  '.config/containers',
  '.kube',
  '.aws',
  '.pip',
  '.config/pip',
  '.pydistutils.cfg',
  '.emacs',
  '.emacs.d',
  '.config/emacs',
  '.psqlrc',
  '.sqliterc',
  '.config/Code/User',
  '.config/Code - OSS/User',
  '.config/VSCodium/User',
  '.config/Cursor/User',
  '.config/zed',
  '.config/opencode',
  '.config/goose',
  '.codeium',
];

/**
 * Directories whose contents no skill may read, write or list, in any directory: keygen's secret
 * keys (`.skillctl/keys/<signer>.key` in the project, its default). Protected paths hold writes
 * only; a skill granted to read the project (the default policy's grant) read a signer's key and
 * could then sign whatever the lock's trusted signers may sign.
 */
export const SECRET_DIRS: readonly (readonly string[])[] = [['.skillctl', 'keys']];
