/**
 * What no skill may write, create, rename or remove, whatever its grant: the files that decide
 * what later runs may do (a policy, a lock, keys, signatures), the record of what runs did
 * (`.skillctl/`: audit logs, registry, cache), what git runs on its own (`.git/hooks`,
 * `.git/config`) and what shells and tools read at start-up. A skill allowed to write the project
 * must not be able to grant itself more next time, rewrite its own history, or plant a program
 * that a person's next `git commit` or new shell runs. The list is a constant a reviewer can read
 * (sandbox-runtime keeps one of the same kind), matched on path segments, anywhere: a policy or
 * lock created in a subdirectory would make that subdirectory look like a project root.
 */
import { dirname, join } from 'node:path';
import { within } from '../fs/within.js';

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
  '.mcp.json',
];

/** Directory paths (as trailing segments) whose whole content is protected, in every directory. */
export const PROTECTED_DIRS: readonly (readonly string[])[] = [['.skillctl'], ['.git', 'hooks'], ['.git', 'config']];

/**
 * Why `real` (an absolute real path) is protected, or undefined. `extra` are the run's own
 * protected real paths (the policy in force and its directory, the lock, the audit log), each
 * protecting itself and everything below it.
 */
export function protectedReason(real: string, extra: readonly string[] = []): string | undefined {
  if (extra.some((p) => within(real, p))) return 'the path is protected: it holds the host policy, the lock file or the audit log of this run, or code skillctl itself loads';
  const segments = real.split('/').filter((s) => s !== '');
  const name = segments[segments.length - 1];
  if (name !== undefined && PROTECTED_FILE_NAMES.includes(name)) return `files named ${name} are protected in every directory`;
  for (let i = 0; i < segments.length; i++) {
    for (const dir of PROTECTED_DIRS) {
      if (dir.every((s, j) => segments[i + j] === s)) return `${dir.join('/')} is protected in every directory`;
    }
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
}

/**
 * The paths one run protects besides the names protected everywhere: the policy in force and
 * the audit log, each with its directory (renaming a directory and refilling it would replace
 * them for the next run), the project's policy, lock, keys, `.skillctl/` and git hooks and
 * configuration, and skillctl's own installation (installPaths). A directory that holds the working directory (the project root, say) is not
 * protected whole: that would take away every write grant; its protected files are.
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
  if (p.root !== undefined) {
    for (const rel of ['skillctl.policy.yaml', 'pins', '.skillctl', '.git/hooks', '.git/config']) out.add(join(p.root, rel));
  }
  if (p.install !== undefined) for (const path of installPaths(p.install, p.cwd)) out.add(path);
  return [...out].sort();
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
