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
 * keeps one of the same kind; protected-names.ts), matched on path segments, anywhere: a policy or lock created in a
 * subdirectory would make that subdirectory look like a project root, and a `.git` planted there
 * a repository.
 *
 * Moving a directory moves what is below it. A path protected by its name stays protected when a
 * directory above it is renamed, as long as the name itself is kept (hence PROTECTED_ENTRY_NAMES);
 * a path the run protects by its full path does not, so every directory above one is pinned
 * (WriteUse `move`). */
import { basename, dirname, join } from 'node:path';
import { lockPathOf } from '../fs/lock-path.js';
import type { EnvConfigs } from './env-configs.js';
import { within } from '../fs/within.js';
// model.js, not the registry's index.ts: every run loads this module, and the index brings the
// registry's publish and validation code with it.
import { CAPABILITIES_DIR, INDEX_FILE } from '../registry/model.js';
import { HOME_PROTECTED_PATHS, PROTECTED_DIRS, PROTECTED_ENTRY_NAMES, PROTECTED_FILE_NAMES, POLICY_SUFFIXES, SECRET_DIRS } from './protected-names.js';

export { HOME_PROTECTED_PATHS, PROTECTED_DIRS, PROTECTED_ENTRY_NAMES, PROTECTED_FILE_NAMES, SECRET_DIRS } from './protected-names.js';

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
const SECRETS = SECRET_DIRS.map((d) => d.map(fold));

/** The names of an absolute path, folded. */
const segmentsOf = (real: string): string[] =>
  real
    .split('/')
    .filter((s) => s !== '')
    .map(fold);

/**
 * Why no skill may read, write or list `real` (inside a SECRET_DIRS directory, or one itself; or
 * one of `extra`, the real paths of files the command keeps secret from the runs it starts), or
 * undefined.
 */
export function secretReason(real: string, extra: readonly string[] = []): string | undefined {
  if (extra.some((p) => within(real, p))) return 'the path holds a secret of the command that started this run (its bearer token): no skill it runs may read it';
  const segments = segmentsOf(real);
  for (let i = 0; i < segments.length; i++) {
    for (const dir of SECRETS) if (dir.every((s, j) => segments[i + j] === s)) return `${dir.join('/')} holds secret keys: no skill may read it, in any directory`;
  }
  return undefined;
}

/** Whether `path` is one of the run's protected paths that is a SECRET_DIRS directory (the sandbox hides it). */
export function isSecretDir(path: string): boolean {
  const segments = path.split('/').map(fold);
  return SECRETS.some((dir) => dir.every((s, j) => segments[segments.length - dir.length + j] === s));
}

/** The PROTECTED_DIRS entry that path segments (folded) run through, if any. */
function protectedDirOf(segments: readonly string[]): readonly string[] | undefined {
  for (let i = 0; i < segments.length; i++) {
    for (const dir of DIRS) if (dir.every((s, j) => segments[i + j] === s)) return dir;
  }
  return undefined;
}

/**
 * Whether neither `real` nor anything below it may be written: it is a file protected in every
 * directory (`sub/.npmrc`), or lies in a directory protected so (`.claude/commands`,
 * `sub/.git/hooks`) or in one of `extra` (the run's protected real paths). A write grant of such a
 * path grants nothing to write: the sandbox shows it read-only.
 */
export function protectedWhole(real: string, extra: readonly string[] = []): boolean {
  const segments = segmentsOf(real);
  const name = segments[segments.length - 1];
  return (name !== undefined && FILE_NAMES.has(name)) || protectedDirOf(segments) !== undefined || extra.some((p) => within(real, p));
}

/**
 * Why writing `real` (an absolute real path) as `use` says is refused, or undefined. `extra` are
 * the run's own protected real paths (runProtectedPaths), each protecting itself and everything
 * below it; under `move`, every directory above one of them is protected as well.
 */
export function protectedReason(real: string, extra: readonly string[] = [], use: WriteUse = 'write'): string | undefined {
  const segments = segmentsOf(real);
  const name = segments[segments.length - 1];
  if (name !== undefined && FILE_NAMES.has(name)) return `files named ${name} are protected in every directory`;
  if (name !== undefined && use !== 'enter' && ENTRY_NAMES.has(name)) return `an entry named ${name} may not be created, replaced, renamed or removed, in any directory`;
  const dir = protectedDirOf(segments);
  if (dir !== undefined) return `${dir.join('/')} is protected in every directory`;
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
  /** The node binary running skillctl (`process.execPath`), which the next skillctl runs too. */
  readonly node?: string;
  /** Registries named explicitly (`--registry`, `$SKILLCTL_REGISTRY`), which `skillctl mcp` serves. */
  readonly registries?: readonly string[];
  /**
   * Files the command itself trusts (`mcp --http-token-file`: a token a skill could set to one
   * it knows), protected with their directories as the policy file is.
   */
  readonly trusted?: readonly string[];
  /**
   * The project's skill roots (absolute: `manifests/`, `skills/`, `.agents/skills/`,
   * `.claude/skills/`, or the lock's `skill_roots`), which `mcp --skills` serves to agents.
   */
  readonly skillRoots?: readonly string[];
  /**
   * The user's home, and the directories the policy lets skills write: the home's protected names
   * that lie in one of those are paths of the run too (see runProtectedPaths).
   */
  readonly home?: { readonly dir: string; readonly writable: readonly string[] };
  /** Configuration of tools that run programs, where the environment names it (env-configs.ts). */
  readonly envConfigs?: EnvConfigs;
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
  if (p.auditFile !== undefined) {
    withDir(p.auditFile);
    // Its write lock, absent but for the moment of an append: a directory (or a lock of a live
    // process) planted there fails every append to the log, the run's own end record among them.
    out.add(lockPathOf(p.auditFile));
  }
  for (const file of p.trusted ?? []) withDir(file);
  for (const file of p.envConfigs?.files ?? []) withDir(file);
  // A folder that holds the working directory is not protected whole (it would take away every write grant).
  for (const dir of p.envConfigs?.dirs ?? []) if (!within(p.cwd, dir)) out.add(dir);
  if (p.root !== undefined) for (const path of projectRootPaths(p.root)) out.add(path);
  // A home is a second root: a process granted it (or ~/.config) would otherwise find its
  // start-up files, SSH keys and git configuration writable under bubblewrap, which holds names
  // only where it is given them. Only those in a directory the policy lets skills write: the rest
  // no skill can write anyway, and each path costs every run a look. The home's own paths
  // (HOME_PROTECTED_PATHS) are held this way only: their names are too common for every directory.
  if (p.home !== undefined) {
    const { dir, writable } = p.home;
    for (const rel of [...PROTECTED_FILE_NAMES, ...PROTECTED_DIRS.map((d) => d.join('/')), ...HOME_PROTECTED_PATHS]) {
      const path = join(dir, rel);
      if (writable.some((w) => within(path, w))) out.add(path);
    }
  }
  // The skill roots: `mcp --skills` lists what is in them on every request and serves each
  // SKILL.md's frontmatter verbatim, so a SKILL.md a skill wrote there (or edited, in a pinned
  // folder: nothing is compared with the lock) is an agent's next skill, and its `allowed-tools`
  // runs commands without asking, outside every sandbox. `.agents/` and `.claude/` are protected by
  // their names for the same reason. A root that holds the working directory is not: protected,
  // it would take away every write grant.
  for (const dir of p.skillRoots ?? []) if (!within(p.cwd, dir)) out.add(dir);
  if (p.install !== undefined) for (const path of installPaths(p.install, p.cwd)) out.add(path);
  if (p.node !== undefined) for (const path of nodePaths(p.node, p.cwd)) out.add(path);
  for (const reg of p.registries ?? []) for (const path of registryPaths(reg, p.cwd)) out.add(path);
  return [...out].sort();
}

/**
 * What every run of the project at `root` protects there, whatever its policy: each protected
 * name at the root and its `pins/`. Under bubblewrap, where no name is judged, these are what the
 * mounts and the check for planted paths can hold; a file among them (a policy kept in
 * `.skillctl/`) is out of reach of every skill the project's runs start, and so is a file planted
 * there while it was absent (removed after the run).
 */
export function projectRootPaths(root: string): string[] {
  return [...PROTECTED_FILE_NAMES, 'pins', ...PROTECTED_DIRS.map((d) => d.join('/')), ...SECRET_DIRS.map((d) => d.join('/'))].map((rel) => join(root, rel));
}

/** Whether a file named `name` is named as a policy is (`ci.policy.yaml`, `skillctl.policy.json`). */
export function isPolicyName(name: string): boolean {
  const folded = fold(name);
  return POLICY_SUFFIXES.some((suffix) => folded.endsWith(suffix) && folded.length > suffix.length);
}

/** Whether every run of the project at `root` holds `path` (projectRootPaths). */
export function heldByProject(root: string, path: string): boolean {
  return projectRootPaths(root).some((p) => within(path, p));
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

/**
 * Where the node running skillctl is installed: its prefix (`<prefix>/bin/node`), which holds
 * the binary every skillctl command and every node skill starts, outside the sandbox for the
 * former, and the global packages of that node's npm (a global skillctl among them). nvm, fnm,
 * volta and asdf install node under the home, which a policy may let skills write: a rewritten
 * binary would run the skill's code in the next skillctl, outside every sandbox and policy.
 * Protected whole, unless it holds the working directory: then the binary itself.
 */
export function nodePaths(execPath: string, cwd: string): string[] {
  const bin = dirname(execPath);
  const prefix = basename(bin) === 'bin' ? dirname(bin) : bin;
  return within(cwd, prefix) ? [execPath] : [prefix];
}
