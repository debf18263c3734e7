// Validation results of the default bundle (manifests/default/*), recorded after tsc into
// dist/default-bundles.json so that `skillctl run <built-in>` needs no YAML parsing when the
// shipped bundle is unchanged (src/core/run/snapshot.ts says why this is sound).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `out`: the compiled tree to use and write into (the build's staging directory). */
export async function snapshotDefaultBundles(root, out) {
  const dir = join(root, 'manifests', 'default');
  const { snapshotBundle } = await import(pathToFileURL(join(out, 'src/core/run/index.js')).href);
  const snapshots = {};
  for (const id of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const snap = await snapshotBundle(join(dir, id), `builtin:${id}`);
    if (snap !== undefined && snap.manifest.skill_id === id) snapshots[id] = snap;
  }
  writeFileSync(join(out, 'default-bundles.json'), JSON.stringify(snapshots) + '\n');
}
