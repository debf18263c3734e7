/**
 * Finding a bundle's manifest file: light (no parser), for `skillctl run`, which asks it of every
 * default bundle before it knows whether the bundle needs validating.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_NAMES } from '../bundle/index.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { errnoCode } from '../errors.js';

/** Finds the one manifest file at a bundle's root. */
export async function findManifest(dir: string): Promise<{ path: string } | { diagnostic: Diagnostic }> {
  const present: string[] = [];
  for (const name of MANIFEST_NAMES) {
    try {
      const st = await stat(join(dir, name));
      if (st.isFile()) present.push(name);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT' && errnoCode(err) !== 'ENOTDIR') {
        return { diagnostic: diag('BUNDLE_UNREADABLE', `cannot read ${name}: ${errnoCode(err) ?? String(err)}`, { file: join(dir, name) }) };
      }
    }
  }
  if (present.length === 0) {
    return { diagnostic: diag('BUNDLE_NO_MANIFEST', 'no skill.yaml or skill.json at the bundle root', { file: dir }) };
  }
  if (present.length > 1) {
    return { diagnostic: diag('BUNDLE_AMBIGUOUS_MANIFEST', 'both skill.yaml and skill.json exist; keep exactly one', { file: dir }) };
  }
  return { path: join(dir, present[0] as string) };
}

