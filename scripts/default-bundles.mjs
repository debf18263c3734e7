// Validation results of the default bundle (manifests/default/*), recorded after tsc into
// dist/default-bundles.json so that `skillctl run <built-in>` needs no YAML parsing when the
// shipped bundle is unchanged (src/core/run/snapshot.ts says why this is sound).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function snapshotDefaultBundles(root) {
  const dir = join(root, 'manifests', 'default');
  const { snapshotBundle } = await import(pathToFileURL(join(root, 'dist/src/core/run/index.js')).href);
  const out = {};
  for (const id of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const snap = await snapshotBundle(join(dir, id), `builtin:${id}`);
    if (snap !== undefined && snap.manifest.skill_id === id) out[id] = snap;
  }
  writeFileSync(join(root, 'dist', 'default-bundles.json'), JSON.stringify(out) + '\n');
}
