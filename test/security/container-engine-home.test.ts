// Threat: the container engine reads its configuration from a home the run does not protect.
// docker and podman run outside every sandbox and obey their configuration in the home: docker's
// ~/.docker/config.json names credential helpers, CLI plugin folders and hooks, and contexts
// (an ssh:// host starts ssh); podman's ~/.config/containers names OCI runtimes and hooks. A run
// protects those paths in $HOME (home-config.test.ts), but it started the engine with its scrubbed
// environment, without HOME, and docker and podman then take the account's home from the password
// database: where HOME names another folder (a CI job's home, `sudo` keeping the caller's), the
// configuration the engine obeyed was one no run protected, which a skill granted that folder
// could write. The engine now gets the HOME the run protects; the container gets it only as
// before (a granted name the entrypoint requires). The engine here is a docker on the policy's
// PATH that answers as a working one does and notes the HOME and the argv of each call.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';

const OK = { type: 'object', properties: { ok: { type: 'string' } } };
const POLICY = 'engine.policy.yaml';

const rows: Attack[] = [
  {
    what: 'skillctl started with a HOME other than the account\'s: the engine reads the configuration of that home, which the run protects',
    code: null,
    exit: 0,
    attempt: (sc) => runTarget('./bundles/boxed', {}, { cwd: sc.work, policy: POLICY, env: { HOME: join(sc.work, 'home') } }),
    check: async (_r, sc) => {
      const calls = (await readFile(join(sc.work, 'engine-calls'), 'utf8')).trim().split('\n');
      assert.deepEqual([...new Set(calls.map((c) => c.split(' ')[0]))], [`HOME=${join(sc.work, 'home')}`]);
      // HOME granted and requested, not required: the container gets no value, as before.
      const run = calls.find((c) => c.includes(' run ')) ?? '';
      assert.ok(run !== '' && !run.includes('-e HOME'), run);
    },
  },
];

describe('container engine home: the engine obeys the configuration of the home the run protects', () => {
  const s = scratch('skillctl-attack-container-home-');
  before(async () => {
    await writeBundle(join(s.work, 'bundles', 'boxed'), { entrypoints: [entry({ runtime: 'container', runtime_version: `example/skill@sha256:${'a'.repeat(64)}`, command: ['run'], output_schema: OK, requested_permissions: { env: ['HOME'] } })] });
    await mkdir(join(s.work, 'home', '.docker'), { recursive: true });
    await mkdir(join(s.work, 'enginebin'));
    await writeFile(join(s.work, 'enginebin', 'docker'), `#!/bin/sh\necho "HOME=$HOME $*" >> '${join(s.work, 'engine-calls')}'\n[ "$1" = run ] && echo '{}'\n[ "$1" = info ] && exit 1\nexit 0\n`, { mode: 0o755 });
    await writeFile(join(s.work, POLICY), `version: 1\npermissions:\n  fs.write: [home]\n  env: [HOME]\npath: [${join(s.work, 'enginebin')}, /usr/bin, /bin]\n`);
  });
  attackRows(rows, s);
});
