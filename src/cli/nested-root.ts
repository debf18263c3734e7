/**
 * The I/O of the nested-root check (src/core/policy/nested-root.ts): which of the root's policy
 * and lock exist, and the write grants of every enclosing project's policy, read from disk.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { findProjectRoot, LOCK_MARKER } from '../core/fs/project.js';
import { POLICY_FILE_NAME } from '../core/policy/default.js';
import { plantableRoot, type EnclosingPolicy } from '../core/policy/nested-root.js';
import { resolveReal } from '../core/policy/paths.js';
import { loadFull } from '../core/run/index.js';

/** The policies of the project roots above `root`, nearest first; one that cannot be read or is not valid grants nothing. */
async function enclosingPolicies(root: string): Promise<EnclosingPolicy[]> {
  const out: EnclosingPolicy[] = [];
  // Each enclosing root lies strictly above the last, so the walk ends at / at the latest.
  for (let below = root; dirname(below) !== below; ) {
    const outer = await findProjectRoot(dirname(below));
    if (outer === undefined) break;
    const source = join(outer, POLICY_FILE_NAME);
    const bytes = existsSync(source) ? await readFile(source).catch(() => undefined) : undefined;
    const policy = bytes === undefined ? undefined : (await loadFull()).loadPolicy(bytes, { file: source, baseDir: outer }).policy;
    if (policy !== undefined && policy.fsWrite.length > 0) {
      const reals = await Promise.all(policy.fsWrite.map((w) => resolveReal(w).catch(() => w)));
      out.push({ root: outer, source, fsWrite: [...new Set([...policy.fsWrite, ...reals])] });
    }
    below = outer;
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
  return plantableRoot(files, await enclosingPolicies(root));
}
