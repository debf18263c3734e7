/**
 * The I/O of the checks of what a later command trusts (src/core/policy/project-writes.ts): a
 * nested root's policy and lock, a `--policy` file, an `--audit` log, the folders `mcp` serves.
 * Which project roots hold a path, and the write grants of every policy each keeps, read from disk.
 */
import { existsSync, readdirSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { findProjectRoot, LOCK_MARKER } from '../core/fs/project.js';
import { readBounded } from '../core/fs/read-bounded.js';
import { MANIFEST_MAX_BYTES } from '../core/manifest/guards.js';
import { POLICY_FILE_NAME } from '../core/policy/default.js';
// Not through pins/index.js, which holds the lock's validators (as cli/skill-roots.ts reads it).
import { loadSkillRoots } from '../core/pins/project-skills.js';
import { isPolicyName } from '../core/policy/protected.js';
import { plantableRoot, skillFolderRoot, writablePolicyFile } from '../core/policy/nested-root.js';
import { projectWrite, projectWriteInto, type EnclosingPolicy } from '../core/policy/project-writes.js';
import { exposedServedFolder } from '../core/policy/served-place.js';
import { exposedAuditLog } from '../core/run/audit-place.js';
import { resolveReal } from '../core/policy/paths.js';
import { loadFull } from '../core/run/index.js';
import { pushAll } from '../core/findings.js';

/** The policy files directly in `dir` (`NAME.policy.yaml`, `.yml`, `.json`), sorted; none when it cannot be listed. */
function policyFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter(isPolicyName)
      .sort()
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/**
 * The policies a project keeps, which its runs may be started under: its own, the others at its
 * root (`ci.policy.yaml`) and those in its `.skillctl/`, where every run of the project holds
 * them (heldByProject). What a skill of the project was granted is what one of them grants.
 */
const projectPolicyFiles = (root: string): string[] => [...policyFilesIn(root), ...policyFilesIn(join(root, '.skillctl'))];

/**
 * The project roots at or above each of `starts`, nearest first, each once: a walk that reaches a
 * root already found stops there, since the roots above it are found too.
 */
async function rootsAbove(starts: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const from of starts) {
    // Each root found lies at or above the last search's start, and the next starts above it: the walk ends at / at the latest.
    for (let dir: string | undefined = from; dir !== undefined; ) {
      const outer = await findProjectRoot(dir);
      if (outer === undefined || roots.includes(outer)) break;
      roots.push(outer);
      dir = dirname(outer) === outer ? undefined : dirname(outer);
    }
  }
  return roots;
}

/**
 * The write grants of the policies `root` keeps. One that is not a regular file of at most
 * MANIFEST_MAX_BYTES, or is not valid, grants nothing: no run could be started under it. A skill
 * may have planted any of these names at a root (a FIFO would hold a plain read forever), so they
 * are read as readBounded reads what a repository names.
 */
async function readGrants(root: string): Promise<EnclosingPolicy[]> {
  const out: EnclosingPolicy[] = [];
  for (const source of projectPolicyFiles(root)) {
    const read = await readBounded(source, { maxBytes: MANIFEST_MAX_BYTES });
    const policy = read.ok ? (await loadFull()).loadPolicy(read.bytes, { file: source, baseDir: await policyBaseDir(source) }).policy : undefined;
    if (policy === undefined || policy.fsWrite.length === 0) continue;
    const reals = await Promise.all(policy.fsWrite.map((w) => resolveReal(w).catch(() => w)));
    out.push({ root, source, fsWrite: [...new Set([...policy.fsWrite, ...reals])] });
  }
  return out;
}

// Read once per command: its checks (the nested root, --policy, --audit, the folders mcp serves)
// all run as it starts and judge against the same roots.
const grantsRead = new Map<string, Promise<EnclosingPolicy[]>>();

/** The write grants of the policies each of `roots` keeps (readGrants), each root read once. */
async function writeGrants(roots: readonly string[]): Promise<EnclosingPolicy[]> {
  const out: EnclosingPolicy[] = [];
  for (const root of roots) {
    let read = grantsRead.get(root);
    if (read === undefined) grantsRead.set(root, (read = readGrants(root)));
    pushAll(out, await read);
  }
  return out;
}

/**
 * The refusal of `root`'s policy (unless `--policy` names one) or lock when an enclosing
 * project's skills may have written it; undefined for a root inside no other, or one whose
 * files lie outside every enclosing write grant.
 */
export async function nestedRootRefusal(root: string, explicitPolicy: boolean): Promise<Diagnostic | undefined> {
  const policy = join(root, POLICY_FILE_NAME);
  const lock = join(root, ...LOCK_MARKER.split('/'));
  const files = { ...(!explicitPolicy && existsSync(policy) ? { policy } : {}), ...(existsSync(lock) ? { lock } : {}) };
  if (files.policy === undefined && files.lock === undefined) return undefined;
  const enclosing = await rootsAbove([dirname(root)]);
  // A lock that cannot be read names no roots of its own here: verify-pins reports it.
  const withRoots = await Promise.all(enclosing.map(async (outer) => ({ root: outer, skillRoots: (await loadSkillRoots(outer)).roots })));
  return skillFolderRoot(root, files, withRoots) ?? plantableRoot(files, await writeGrants(enclosing));
}

/**
 * `path`'s real path, and the write grants of the policies of the projects that hold it (a
 * `folder` among them, when it is a root) and of the run's own project (`root`): what
 * projectWrite and projectWriteInto judge it against.
 */
async function policiesOver(path: string, root: string | undefined, folder = false): Promise<{ readonly real: string; readonly policies: EnclosingPolicy[] }> {
  const real = await realpath(path).catch(() => path);
  // A folder may be a project root itself, whose own policy grants writes inside it.
  const start = (p: string): string => (folder ? p : dirname(p));
  const roots = await rootsAbove([...new Set([start(path), start(real)])].concat(root !== undefined ? [root] : []));
  return { real, policies: await writeGrants(roots) };
}

/** The refusal of a `--policy` file that a skill may have rewritten (POLICY_FILE_WRITABLE), or undefined. */
export async function policyFileRefusal(path: string, root: string | undefined): Promise<Diagnostic | undefined> {
  const { real, policies } = await policiesOver(path, root);
  return writablePolicyFile(path, real, policies);
}

/** SERVED_FOLDER_WRITABLE for a folder `mcp` serves (`what`) that a skill of a project may write into, or nothing; `held` are the folders every run protects. */
export async function servedFolderExposure(dir: string, what: string, root: string | undefined, held: readonly string[]): Promise<Diagnostic[]> {
  const { real, policies } = await policiesOver(dir, root, true);
  return exposedServedFolder(dir, what, projectWriteInto(dir, real, policies, held));
}

/** AUDIT_FILE_WRITABLE for an `--audit FILE` that a skill of a project may rewrite, or nothing. */
export async function auditFileExposure(path: string, root: string | undefined): Promise<Diagnostic[]> {
  const { real, policies } = await policiesOver(path, root);
  return exposedAuditLog(path, projectWrite(path, real, policies));
}

/**
 * The directory a policy's relative paths are read from: its own, except for a policy in a
 * project root's `.skillctl/`, the one place in a project every run holds whatever its policy
 * (POLICY_FILE_WRITABLE), which names the project as a policy at its root does: `fs.read: [.]`
 * there grants the project, not `.skillctl/` (which no skill may write, and `..` is refused).
 */
export async function policyBaseDir(file: string): Promise<string> {
  const dir = dirname(file);
  const above = dirname(dir);
  return basename(dir) === '.skillctl' && (await findProjectRoot(above)) === above ? above : dir;
}
