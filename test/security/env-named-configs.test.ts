// Threat: configuration that names programs, where the environment moves it out of the home, rewritten
// by a skill granted the project. The home's own Docker, kubectl, AWS and podman configuration is
// protected (home-config.test.ts); a CI job keeps its own in the work tree instead
// (`DOCKER_CONFIG=$PWD/.docker` after a `docker login`, `KUBECONFIG=$PWD/kubeconfig`), and there it
// was as writable as the grant: a skill set `credsStore` or planted a CLI plugin (programs the job's
// next `docker` runs, and the credentials skillctl's own push sends), an exec plugin in a kubeconfig,
// a `credential_process` in an AWS config (until the stop of 2026-12-01). Now every file these
// variables name is protected with its folder, and `$DOCKER_CONFIG` whole; named through a link
// (held: the gate judges the real path written), the same.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, scratch, type Attack, type Ran, type Scratch } from '../helpers/attack.js';
import { createPatch as create, hostAttacks, writeHostAttackBundles } from '../helpers/host-attacks.js';

const DOCKER = '{"auths":{}}\n';
const KUBE = 'apiVersion: v1\nkind: Config\n';
const AWS = '[default]\nregion = eu-west-1\n';
/** The CI job's configuration, inside the project the policy grants. */
const ci = (s: Scratch): string => join(s.work, 'ci');
/** A link to it outside the project: the variables spelt otherwise than the paths a skill writes. */
const ciLink = (s: Scratch): string => join(s.root, 'ci-link');

describe('threat: configuration the environment names, rewritten by a skill granted the project', () => {
  const sc = scratch('skillctl-env-configs-');

  before(async () => {
    await mkdir(join(ci(sc), 'docker'), { recursive: true });
    await writeFile(join(ci(sc), 'docker', 'config.json'), DOCKER);
    await mkdir(join(ci(sc), 'kube'));
    await writeFile(join(ci(sc), 'kube', 'a'), KUBE);
    await writeFile(join(ci(sc), 'kube', 'b'), KUBE);
    await mkdir(join(ci(sc), 'aws'));
    await writeFile(join(ci(sc), 'aws', 'config'), AWS);
    await symlink(ci(sc), ciLink(sc));
    await writeHostAttackBundles(sc.work, ['mkdir', 'ci/docker/cli-plugins']);
  });

  const untouched = async (_r: Ran, s: Scratch): Promise<void> => {
    assert.equal(await readFile(join(ci(s), 'docker', 'config.json'), 'utf8'), DOCKER);
    assert.equal(await readFile(join(ci(s), 'kube', 'b'), 'utf8'), KUBE);
    assert.equal(await readFile(join(ci(s), 'aws', 'config'), 'utf8'), AWS);
    assert.equal(existsSync(join(ci(s), 'docker', 'cli-plugins')), false);
  };
  // Relative, as a job sets them from its work tree: resolved from the working directory.
  const env = (): Record<string, string> => ({ DOCKER_CONFIG: 'ci/docker', KUBECONFIG: 'ci/kube/a:ci/kube/b', AWS_CONFIG_FILE: 'ci/aws/config' });
  const { write, patch, refused, wasi, procAnswers } = hostAttacks(untouched, { dir: ci, env });
  const linked = hostAttacks(untouched, {
    dir: ci,
    env: (s) => ({ DOCKER_CONFIG: join(ciLink(s), 'docker'), KUBECONFIG: join(ciLink(s), 'kube', 'b'), AWS_CONFIG_FILE: join(ciLink(s), 'aws', 'config') }),
  });

  const rows: Attack[] = [
    refused("fs.write_patch plants a docker CLI plugin in $DOCKER_CONFIG/cli-plugins (run as a docker subcommand)", patch(create('ci/docker/cli-plugins/docker-x', '#!/bin/sh\ntouch PWNED'))),
    refused('provenact fs_write_file rewrites $DOCKER_CONFIG/config.json (credsStore names a program)', write('ci/docker/config.json')),
    refused('provenact fs_write_file rewrites the second file of $KUBECONFIG', write('ci/kube/b')),
    refused('provenact fs_write_file rewrites $AWS_CONFIG_FILE (credential_process names a program)', write('ci/aws/config')),
    wasi('WASI: a cli-plugins folder created in $DOCKER_CONFIG (NOTCAPABLE)', [76]),
    procAnswers(
      'a process in bubblewrap rewrites $DOCKER_CONFIG/config.json, $KUBECONFIG and $AWS_CONFIG_FILE (read-only mounts)',
      [
        ['write', 'docker/config.json', '{"credsStore":"x"}\n'],
        ['write', 'kube/b', 'users:\n- user:\n    exec: {command: /tmp/x}\n'],
        ['write', 'aws/config', '[default]\ncredential_process = /tmp/x\n'],
      ],
      'EROFS,EROFS,EROFS',
    ),
    procAnswers('a process in bubblewrap creates $DOCKER_CONFIG/cli-plugins (a read-only mount)', [['mkdir', 'docker/cli-plugins']], 'EROFS'),
    refused('through a link: provenact fs_write_file rewrites $DOCKER_CONFIG/config.json', linked.write('ci/docker/config.json')),
    refused('through a link: fs.write_patch plants a docker CLI plugin', linked.patch(create('ci/docker/cli-plugins/docker-x', '#!/bin/sh\ntouch PWNED'))),
    refused('through a link: provenact fs_write_file rewrites $AWS_CONFIG_FILE', linked.write('ci/aws/config')),
    linked.procAnswers(
      'through a link: a process in bubblewrap rewrites $DOCKER_CONFIG/config.json and $KUBECONFIG (read-only mounts)',
      [
        ['write', 'docker/config.json', '{"credsStore":"x"}\n'],
        ['write', 'kube/b', 'users: []\n'],
      ],
      'EROFS,EROFS',
    ),
    procAnswers('the same process writes the rest of the project', [['write', 'notes.txt', 'mine']], 'ok'),
  ];
  attackRows(rows, sc);
});
