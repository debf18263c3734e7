import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installPaths, protectedReason, runProtectedPaths } from '../../../src/core/policy/index.js';

describe('installPaths: the code the next skillctl run loads', () => {
  it('protects an install inside a project whole, and every node_modules Node resolution walks from it', () => {
    assert.deepEqual(installPaths('/home/u/proj/node_modules/skillctl', '/home/u/proj'), [
      '/home/u/proj/node_modules/skillctl',
      '/home/u/proj/node_modules/skillctl/node_modules',
      '/home/u/proj/node_modules/node_modules',
      '/home/u/proj/node_modules',
      '/home/u/node_modules',
      '/home/node_modules',
      '/node_modules',
    ]);
  });

  it('protects only the parts a checkout of skillctl loads when the run starts inside it, so write grants there still work', () => {
    assert.deepEqual(installPaths('/src/skillctl', '/src/skillctl/work'), [
      '/src/skillctl/dist',
      '/src/skillctl/bin',
      '/src/skillctl/package.json',
      '/src/skillctl/manifests',
      '/src/skillctl/schemas',
      '/src/skillctl/node_modules',
      '/src/node_modules',
      '/node_modules',
    ]);
  });

  it('a run refuses writes to the bundles, their code caches and the dependencies, and allows the rest of the project', () => {
    const extra = runProtectedPaths({ cwd: '/home/u/proj', root: '/home/u/proj', install: '/home/u/proj/node_modules/skillctl' });
    for (const path of ['/home/u/proj/node_modules/skillctl/dist/cmd/run.cjs.v8cache', '/home/u/proj/node_modules/skillctl/manifests/default/fs.read_text/skill.yaml', '/home/u/proj/node_modules/fflate/esm/index.mjs']) {
      assert.match(protectedReason(path, extra) ?? '', /protected/, path);
    }
    assert.equal(protectedReason('/home/u/proj/src/index.ts', extra), undefined);
  });
});
