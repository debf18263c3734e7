/**
 * What no skill may write, create, rename or remove, whatever its grant: the files that decide
 * what later runs may do (a policy, a lock, keys, signatures), the record of what runs did
 * (`.skillctl/`: audit logs, registry, cache), what git runs on its own (`.git/hooks`,
 * `.git/config` and the files that lead git to another config), what shells and tools read at
 * start-up, and what agent hosts, editors, package managers, build tools, version managers and
 * hook managers obey on their own (hooks, MCP servers, tasks, install scripts, plugins, compiler
 * wrappers). A skill allowed to write the project must not be able to grant itself more next
 * time, rewrite its own history, or plant a program that a person's next `git status`, commit,
 * `npm install`, build, `cd`, new shell or agent session runs, outside every sandbox. The lists are constants a reviewer can read (sandbox-runtime
 * keeps one of the same kind), matched on path segments, anywhere: a policy or lock created in a
 * subdirectory would make that subdirectory look like a project root, and a `.git` planted there
 * a repository.
 *
 * Moving a directory moves what is below it. A path protected by its name stays protected when a
 * directory above it is renamed, as long as the name itself is kept (hence PROTECTED_ENTRY_NAMES);
 * a path the run protects by its full path does not, so every directory above one is pinned
 * (WriteUse `move`). */
import { dirname, join } from 'node:path';
import { within } from '../fs/within.js';
// model.js, not the registry's index.ts: every run loads this module, and the index brings the
// registry's publish and validation code with it.
import { CAPABILITIES_DIR, INDEX_FILE } from '../registry/model.js';

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
  // shell and tool start-up files
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
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
 * How a write is about to use a path. `write`: a file or a directory is created there, or a file
 * replaced. `move`: it is renamed (either name) or removed; also refused when it holds a path the
 * run protects by its full path, which would leave protection with it. `enter`: a directory is
 * opened to write in (each child is judged by its own name), which an entry protected only as
 * an entry (`.git`, `.cargo`, `.yarn`) allows.
 */
export type WriteUse = 'write' | 'move' | 'enter';

/**
 * Names are compared without regard to case: on a case-insensitive file system (macOS by
 * default, ext4 with casefold) `.GIT/CONFIG` is `.git/config`. sandbox-runtime does the same.
 */
const fold = (name: string): string => name.toLowerCase();
const FILE_NAMES = new Set(PROTECTED_FILE_NAMES.map(fold));
const ENTRY_NAMES = new Set(PROTECTED_ENTRY_NAMES.map(fold));
const DIRS = PROTECTED_DIRS.map((d) => d.map(fold));

/**
 * Why writing `real` (an absolute real path) as `use` says is refused, or undefined. `extra` are
 * the run's own protected real paths (runProtectedPaths), each protecting itself and everything
 * below it; under `move`, every directory above one of them is protected as well.
 */
export function protectedReason(real: string, extra: readonly string[] = [], use: WriteUse = 'write'): string | undefined {
  const segments = real
    .split('/')
    .filter((s) => s !== '')
    .map(fold);
  const name = segments[segments.length - 1];
  if (name !== undefined && FILE_NAMES.has(name)) return `files named ${name} are protected in every directory`;
  if (name !== undefined && use !== 'enter' && ENTRY_NAMES.has(name)) return `an entry named ${name} may not be created, replaced, renamed or removed, in any directory`;
  for (let i = 0; i < segments.length; i++) {
    for (const dir of DIRS) {
      if (dir.every((s, j) => segments[i + j] === s)) return `${dir.join('/')} is protected in every directory`;
    }
  }
  if (extra.some((p) => within(real, p))) return 'the path is protected: it holds the host policy, the lock file, the audit log or a file this run trusts, or code skillctl itself loads';
  if (use === 'move' && extra.some((p) => within(p, real))) {
    return 'the directory holds a path this run protects (the host policy, the lock file, the audit log, or code skillctl itself loads): renamed or removed, it would take it out of protection';
  }
  return undefined;
}

export interface RunPlaces {
  /** The project root, if there is one. */
  readonly root?: string;
  /** The run's working directory. */
  readonly cwd: string;
  /** The policy file in force (absent for the default policy). */
  readonly policyFile?: string;
  /** The audit log, if the run writes one. */
  readonly auditFile?: string;
  /** Where skillctl itself is installed (its package root), whose code the next run loads. */
  readonly install?: string;
  /** Registries named explicitly (`--registry`, `$SKILLCTL_REGISTRY`), which `skillctl mcp` serves. */
  readonly registries?: readonly string[];
  /**
   * Files the command itself trusts (`mcp --http-token-file`: a token a skill could set to one
   * it knows), protected with their directories as the policy file is.
   */
  readonly trusted?: readonly string[];
  /**
   * The user's home, and the directories the policy lets skills write: the home's protected names
   * that lie in one of those are paths of the run too (see runProtectedPaths).
   */
  readonly home?: { readonly dir: string; readonly writable: readonly string[] };
}

/**
 * The paths one run protects besides the names protected everywhere: the policy in force and
 * the audit log, each with its directory (renaming a directory and refilling it would replace
 * them for the next run), every protected name at the project root (its policy, lock, keys,
 * `.skillctl/`, git hooks and configuration, start-up files) and its `pins/`, the same names in
 * the user's home where the policy lets skills write, and skillctl's own installation
 * (installPaths). A directory that holds the working directory (the project root,
 * say) is not protected whole: that would take away every write grant; its protected files are,
 * and it cannot be renamed or removed (WriteUse `move`).
 */
export function runProtectedPaths(p: RunPlaces): string[] {
  const out = new Set<string>();
  const withDir = (file: string): void => {
    out.add(file);
    const dir = dirname(file);
    if (!within(p.cwd, dir) && (p.root === undefined || !within(p.root, dir))) out.add(dir);
  };
  if (p.policyFile !== undefined) withDir(p.policyFile);
  if (p.auditFile !== undefined) withDir(p.auditFile);
  for (const file of p.trusted ?? []) withDir(file);
  if (p.root !== undefined) {
    // At the root every protected name is a path of the run too: under bubblewrap, where no
    // name is judged, these are what the mounts and the check for planted paths can hold.
    for (const rel of [...PROTECTED_FILE_NAMES, 'pins', ...PROTECTED_DIRS.map((d) => d.join('/'))]) out.add(join(p.root, rel));
  }
  // A home is a second root: a process granted it (or ~/.config) would otherwise find its
  // start-up files, SSH keys and git configuration writable under bubblewrap, which holds names
  // only where it is given them. Only those in a directory the policy lets skills write: the rest
  // no skill can write anyway, and each path costs every run a look.
  if (p.home !== undefined) {
    const { dir, writable } = p.home;
    for (const rel of [...PROTECTED_FILE_NAMES, ...PROTECTED_DIRS.map((d) => d.join('/'))]) {
      const path = join(dir, rel);
      if (writable.some((w) => within(path, w))) out.add(path);
    }
  }
  if (p.install !== undefined) for (const path of installPaths(p.install, p.cwd)) out.add(path);
  for (const reg of p.registries ?? []) for (const path of registryPaths(reg, p.cwd)) out.add(path);
  return [...out].sort();
}

/**
 * What a registry named explicitly holds: which tools `skillctl mcp` offers, which skill each one
 * runs, and which writes wait for the user's approval, read afresh on every load and reload. Such
 * a registry lies wherever the user keeps it (the project's own, `.skillctl/registry`, is protected
 * by its name), often inside a folder skills may write: a capability republished there without
 * `requires_approval` would let the agent's next call write unasked. Protected whole, unless it
 * holds the working directory (that would take away every write grant): then its index and
 * capabilities.
 */
function registryPaths(registry: string, cwd: string): string[] {
  return within(cwd, registry) ? [join(registry, INDEX_FILE), join(registry, CAPABILITIES_DIR)] : [registry];
}

/**
 * What the next skillctl run loads from its installation: its bundles and launcher, the V8 code
 * caches it writes beside them at first use, its package.json, the default skills and schemas it
 * ships, and every `node_modules` directory Node's resolution walks from the install for the
 * dependencies it loads at run time. skillctl is most often installed in the very project a skill
 * may be granted to write: rewriting one of these files would run the skill's code, or widen a
 * shipped skill's manifest, in the next skillctl, outside every sandbox and policy. The install is
 * protected whole, unless it holds the working directory (a checkout of skillctl itself), where
 * protecting it whole would take away every write grant: then the parts it loads are.
 */
export function installPaths(install: string, cwd: string): string[] {
  const out = within(cwd, install) ? ['dist', 'bin', 'package.json', 'manifests', 'schemas'].map((rel) => join(install, rel)) : [install];
  for (let dir = install; ; dir = dirname(dir)) {
    out.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) break;
  }
  return out;
}
