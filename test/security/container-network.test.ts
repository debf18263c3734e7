// Threat: a container skill granted one URL prefix reaches every host and port through the container engine's network.
// The egress proxy holds a process to its net.http prefixes through a bridge inside the sandbox,
// which an image need not be able to run; the engine's network is every host and port (the host's
// services through the gateway, the cloud metadata address). Before, a container entrypoint granted
// net.http ran there unasked; it is now refused before the engine is asked, unless the policy
// accepts the engine's network. The engine here is a docker on the policy's PATH that notes it was
// asked and answers as a stopped daemon does: what is checked is whether skillctl got that far.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';

const OK = { type: 'object', properties: { ok: { type: 'string' } } };
/** Policies for the container rows: their PATH holds only a docker that notes it was asked and answers as a stopped daemon does. */
const CONTAINER = 'container.policy.yaml';
const CONTAINER_WIDE = 'container-wide.policy.yaml';

const rows: Attack[] = [
  {
    what: "a container granted one URL, which the engine's network would let reach every host: refused before the engine is asked",
    code: 'RUN_CONTAINER_NETWORK_UNCONFINED',
    exit: 3,
    attempt: (sc) => runTarget('./bundles/container', {}, { cwd: sc.work, policy: CONTAINER }),
    check: async (r, sc) => {
      assert.equal(r.status, 'denied');
      assert.equal(existsSync(join(sc.work, 'engine-asked')), false, 'the engine was started');
    },
  },
  {
    what: "the same container under a policy that accepts the engine's network (allow_container_network): on to the engine, with a warning",
    code: 'RUN_CONTAINER_ENGINE_UNAVAILABLE',
    exit: 2,
    attempt: (sc) => runTarget('./bundles/container', {}, { cwd: sc.work, policy: CONTAINER_WIDE }),
    check: async (r, sc) => {
      assert.match(r.stdout, /"code": "RUN_CONTAINER_NETWORK_WIDE"/);
      assert.equal(existsSync(join(sc.work, 'engine-asked')), true, 'the engine was not asked');
    },
  },
];

describe('container network: a container granted net.http is refused unless the policy accepts the engine network', () => {
  const s = scratch('skillctl-attack-container-net-');
  before(async () => {
    await writeBundle(join(s.work, 'bundles', 'container'), {
      entrypoints: [entry({ runtime: 'container', runtime_version: `example/skill@sha256:${'a'.repeat(64)}`, command: ['run'], output_schema: OK, requested_permissions: { 'net.http': ['https://api.example.com/v1'] } })],
    });
    await mkdir(join(s.work, 'enginebin'));
    await writeFile(join(s.work, 'enginebin', 'docker'), `#!/bin/sh\n/usr/bin/touch '${join(s.work, 'engine-asked')}'\necho "Cannot connect to the Docker daemon" >&2\nexit 1\n`, { mode: 0o755 });
    const containerPolicy = ['version: 1', 'permissions:', '  net.http: [https://api.example.com/v1]', `path: [${join(s.work, 'enginebin')}]`];
    await writeFile(join(s.work, CONTAINER), [...containerPolicy, ''].join('\n'));
    await writeFile(join(s.work, CONTAINER_WIDE), [...containerPolicy, 'allow_container_network: true', ''].join('\n'));
  });
  attackRows(rows, s);
});
