/**
 * skillctl supports every Node its `engines` names (20.19 and later), so every package a user's
 * install brings must say it runs there too: npm warns (EBADENGINE) at every install otherwise,
 * fails it under `engine-strict`, and Yarn 1 refuses it outright. Read from the lock, which is
 * the tree CI tests: unpdf 1.8 asked for Node 22 and was pinned back to 1.7 for this.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';
import { ROOT } from '../helpers/paths.js';

interface LockedPackage {
  readonly version?: string;
  readonly dev?: boolean;
  readonly engines?: { readonly node?: string } | readonly string[];
}

const read = <T>(file: string): T => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T;

describe('the engines of what a production install brings', () => {
  it('each admits every Node skillctl supports', () => {
    const ours = read<{ engines: { node: string } }>('package.json').engines.node;
    const { packages } = read<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const refused: string[] = [];
    let checked = 0;
    for (const [path, p] of Object.entries(packages)) {
      // Old packages list engines as an array of strings, which npm ignores.
      const node = p.dev === true || path === '' || Array.isArray(p.engines) ? undefined : (p.engines as { node?: string } | undefined)?.node;
      if (node === undefined) continue;
      checked++;
      if (!semver.subset(ours, node)) refused.push(`${path.replace(/^.*node_modules\//, '')}@${p.version ?? '?'} wants node ${node}`);
    }
    assert.ok(checked > 20, `only ${checked} production packages name an engine: is the lock read right?`);
    assert.deepEqual(refused, []);
  });
});
