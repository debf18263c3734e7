import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { locateRegistry } from '../../../src/core/registry/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('which registry a command uses', () => {
  const shipped = '/pkg/manifests/registry';

  it('--registry, then $SKILLCTL_REGISTRY, relative to the working directory', async () => {
    const cwd = tempDir();
    assert.deepEqual(await locateRegistry({ cwd, shipped, flag: 'a', env: '/b' }), { dir: join(cwd, 'a'), source: 'flag', writable: true });
    assert.deepEqual(await locateRegistry({ cwd, shipped, env: '/b' }), { dir: '/b', source: 'env', writable: true });
  });

  it("then the project's .skillctl/registry when it exists (or for a write), else the shipped one, read-only", async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'skillctl.policy.yaml'), '{}\n');
    const cwd = join(root, 'src', 'deep');
    mkdirSync(cwd, { recursive: true });
    assert.deepEqual(await locateRegistry({ cwd, shipped }), { dir: shipped, source: 'shipped', writable: false });
    assert.deepEqual(await locateRegistry({ cwd, shipped, forWrite: true }), { dir: join(root, '.skillctl', 'registry'), source: 'project', writable: true });
    mkdirSync(join(root, '.skillctl', 'registry'), { recursive: true });
    assert.deepEqual(await locateRegistry({ cwd, shipped }), { dir: join(root, '.skillctl', 'registry'), source: 'project', writable: true });
    assert.deepEqual(await locateRegistry({ cwd: tempDir(), shipped, forWrite: true }), { dir: shipped, source: 'shipped', writable: false });
  });
});
