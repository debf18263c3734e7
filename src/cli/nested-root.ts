/**
 * The I/O of the nested-root and `--policy` file checks (src/core/policy/nested-root.ts): which
 * of the root's policy and lock exist, and the write grants of every enclosing project's policy,
 * read from disk.
 */
import { existsSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { findProjectRoot, LOCK_MARKER } from '../core/fs/project.js';
import { POLICY_FILE_NAME } from '../core/policy/default.js';
import { plantableRoot, writablePolicyFile, type EnclosingPolicy } from '../core/policy/nested-root.js';
import { resolveReal } from '../core/policy/paths.js';
import { loadFull } from '../core/run/index.js';

/** The policies of the project roots at or above `from`, nearest first; one that cannot be read or is not valid grants nothing. */
async function policiesAbove(from: string): Promise<EnclosingPolicy[]> {
  const out: EnclosingPolicy[] = [];
  // Each root found lies at or above `from` and the next search starts above it, so the walk ends at / at the latest.
  for (let dir: string | undefined = from; dir !== undefined; ) {
    const outer = await findProjectRoot(dir);
    if (outer === undefined) break;
    const source = join(outer, POLICY_FILE_NAME);
    const bytes = existsSync(source) ? await readFile(source).catch(() => undefined) : undefined;
    const policy = bytes === undefined ? undefined : (await loadFull()).loadPolicy(bytes, { file: source, baseDir: outer }).policy;
    if (policy !== undefined && policy.fsWrite.length > 0) {
      const reals = await Promise.all(policy.fsWrite.map((w) => resolveReal(w).catch(() => w)));
      out.push({ root: outer, source, fsWrite: [...new Set([...policy.fsWrite, ...reals])] });
    }
    dir = dirname(outer) === outer ? undefined : dirname(outer);
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
  return plantableRoot(files, await policiesAbove(dirname(root)));
}

/**
 * The refusal of a `--policy` file that a skill may have rewritten: one inside a write grant of
 * the policy of a project that holds it, or of the run's own project (`root`), outside the
 * paths every run of that project protects. Undefined otherwise.
 */
export async function policyFileRefusal(path: string, root: string | undefined): Promise<Diagnostic | undefined> {
  const real = await realpath(path).catch(() => path);
  const policies = new Map<string, EnclosingPolicy>();
  for (const from of [dirname(path), dirname(real), ...(root !== undefined ? [root] : [])]) {
    for (const p of await policiesAbove(from)) policies.set(p.root, p);
  }
  return writablePolicyFile(path, real, [...policies.values()]);
}
