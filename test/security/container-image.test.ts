// Threat: a container entrypoint "pinned by digest" whose image podman reads from a path, where the digest is only part of a file name.
// podman (and the containers/image library) reads an image from a transport as well as from a
// registry: `dir:/tmp/img@sha256:<64 hex>` is the directory of that name, `oci-archive:` and
// `docker-archive:` a file, `containers-storage:[driver@root]…` a store anywhere. The digest
// checked nothing there: whatever lay at the path when the run started (put there by any local
// user in /tmp, or by a skill granted the folder in an earlier run) was the image, run with the
// grants of a manifest the lock had pinned. Before, `validate` called such an entrypoint pinned
// and `run` handed the reference to the engine; both now refuse it (RUNTIME_UNPINNED), and a
// registry reference (a host and port, a path, a tag beside the digest) still runs. The engine
// here is a podman on the policy's PATH that answers as a working one does and notes each call.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, attempt, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';

const OK = { type: 'object', properties: { ok: { type: 'string' } } };
const DIGEST = `@sha256:${'a'.repeat(64)}`;
const POLICY = 'engine.policy.yaml';
/** Each bundle's image reference: a transport's path, or a registry reference (the control). */
const IMAGES: Record<string, string> = {
  dir: `dir:/tmp/planted-image${DIGEST}`,
  archive: `oci-archive:/tmp/planted.tar${DIGEST}`,
  store: `containers-storage:[overlay@/tmp/store]planted${DIGEST}`,
  registry: `registry.example.com:5000/acme/tool:1.2${DIGEST}`,
};
const calls = (sc: { work: string }): string => join(sc.work, 'engine-calls');

const refused = (bundle: string, how: 'validate' | 'run'): Attack => ({
  what: `${how} of a container whose image is ${JSON.stringify(IMAGES[bundle])}: refused${how === 'run' ? ', the engine never asked' : ''}`,
  code: 'RUNTIME_UNPINNED',
  exit: 1,
  attempt: (sc) => (how === 'run' ? runTarget(`./bundles/${bundle}`, {}, { cwd: sc.work, policy: POLICY }) : attempt(['validate', `./bundles/${bundle}`], { cwd: sc.work })),
  check: async (_r, sc) => assert.equal(existsSync(calls(sc)) && (await readFile(calls(sc), 'utf8')).includes(IMAGES[bundle] as string), false, 'the engine was given the image'),
});

const rows: Attack[] = [
  refused('dir', 'validate'),
  refused('dir', 'run'),
  refused('archive', 'run'),
  refused('store', 'run'),
  {
    what: 'a registry reference with a host, a port, a path and a tag beside the digest: run as before',
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('./bundles/registry', {}, { cwd: sc.work, policy: POLICY }),
    check: async (_r, sc) => assert.match(await readFile(calls(sc), 'utf8'), new RegExp(`-- ${IMAGES.registry} run\\n`)),
  },
];

describe('container image: an image read from a path is not pinned by the digest in its name', () => {
  const s = scratch('skillctl-attack-container-image-');
  before(async () => {
    for (const [name, image] of Object.entries(IMAGES)) {
      await writeBundle(join(s.work, 'bundles', name), { entrypoints: [entry({ runtime: 'container', runtime_version: image, command: ['run'], output_schema: OK })] });
    }
    await mkdir(join(s.work, 'enginebin'));
    await writeFile(join(s.work, 'enginebin', 'podman'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls(s)}'\n[ "$1" = run ] && echo '{}'\nexit 0\n`, { mode: 0o755 });
    await writeFile(join(s.work, POLICY), `version: 1\npath: [${join(s.work, 'enginebin')}, /usr/bin, /bin]\n`);
  });
  attackRows(rows, s);
});
