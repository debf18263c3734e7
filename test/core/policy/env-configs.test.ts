import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envConfigs } from '../../../src/core/policy/env-configs.js';
import { runProtectedPaths } from '../../../src/core/policy/protected.js';

describe('envConfigs: configuration of tools that run programs, where the environment names it', () => {
  it("names $DOCKER_CONFIG's folder, config.json and cli-plugins, every file of $KUBECONFIG, $AWS_CONFIG_FILE and $CONTAINERS_CONF, relative ones from the working directory", () => {
    const env = { DOCKER_CONFIG: 'ci/docker', KUBECONFIG: '/k/a::ci/b', AWS_CONFIG_FILE: '/aws/config', CONTAINERS_CONF: '', HOME: '/home/u' };
    assert.deepEqual(envConfigs(env, '/p'), {
      dirs: ['/p/ci/docker', '/p/ci/docker/cli-plugins'],
      files: ['/k/a', '/p/ci/b', '/aws/config', '/p/ci/docker/config.json'],
    });
  });

  it('names nothing when none is set, or set empty', () => {
    assert.deepEqual(envConfigs({ DOCKER_CONFIG: '', KUBECONFIG: '' }, '/p'), { dirs: [], files: [] });
  });

  it("a run protects them; a $DOCKER_CONFIG that holds the working directory by its config.json and cli-plugins only, not whole", () => {
    const out = runProtectedPaths({ cwd: '/p/sub', envConfigs: envConfigs({ DOCKER_CONFIG: '/p', KUBECONFIG: '/elsewhere/kube/config' }, '/p/sub') });
    for (const p of ['/p/config.json', '/p/cli-plugins', '/elsewhere/kube/config', '/elsewhere/kube']) assert.ok(out.includes(p), p);
    assert.equal(out.includes('/p'), false);
  });
});
