// Threat: a container skill holds its grants as the host's root, not as the user who runs skillctl.
// A rootful docker daemon's root is the host's: dropping every capability leaves it the owner of
// every file root owns, so a container granted `/etc` to read reads `/etc/shadow` (0640, its
// owner's), one granted `/root` reads its keys, and one granted a folder leaves files there that
// root owns, setuid-root ones too (an owner may set the bit). bubblewrap gives the same grants
// only the user's rights. Before, skillctl run by a user who is not root started every container
// as the image's user (root). Now a rootful docker is told to run it as that user (`--user
// UID:GID`); a rootless daemon, one that remaps users, and podman started by a user (rootless),
// whose root is that user or an unprivileged one, are left as they were. The engine here is a
// docker on the policy's PATH that answers as a daemon does and notes the argv of its `run`;
// skillctl runs as nobody (setpriv) when the tests run as root.
import assert from 'node:assert/strict';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ownForRun, skillctlAs, unprivileged } from '../helpers/as-nobody.js';
import { entry, writeBundle } from '../helpers/bundles.js';
import { tempDir } from '../helpers/tmp.js';

const how = unprivileged();
const skip = 'skip' in how ? how.skip : false;
const OK = { type: 'object', properties: { ok: { type: 'string' } } };

/** An engine that answers `info` with these security options and notes the argv of each `run`. */
const engineScript = (calls: string, securityOptions: readonly string[]): string =>
  `#!/bin/sh\nif [ "$1" = run ]; then printf '%s\\n' "$*" >> '${calls}'; echo '{}'; exit 0; fi\n[ "$1" = version ] && { echo 27.0.0; exit 0; }\n[ "$1" = info ] && { echo '${JSON.stringify(securityOptions)}'; exit 0; }\nexit 1\n`;

describe('container user: a container skill runs as the user who runs skillctl, not as the daemon\'s root', { skip }, () => {
  const tmp = tempDir('skillctl-attack-container-user-');
  let root: string;
  let project: string;
  const ids = process.getuid?.() === 0 ? '65534:65534' : `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;

  before(async () => {
    root = tmp;
    project = join(root, 'project');
    for (const d of ['home', 'tmp', 'project/.git', 'rootful', 'rootless']) await mkdir(join(root, d), { recursive: true });
    await writeFile(join(root, 'rootful', 'docker'), engineScript(join(root, 'rootful-calls'), ['name=apparmor', 'name=seccomp,profile=builtin', 'name=cgroupns']), { mode: 0o755 });
    await writeFile(join(root, 'rootless', 'docker'), engineScript(join(root, 'rootless-calls'), ['name=seccomp,profile=builtin', 'name=rootless', 'name=cgroupns']), { mode: 0o755 });
    for (const kind of ['rootful', 'rootless']) await writeFile(join(project, `${kind}.policy.yaml`), `version: 1\npermissions:\n  fs.read: [data]\npath: [${join(root, kind)}, /usr/bin, /bin]\n`);
    await mkdir(join(project, 'data'));
    await writeBundle(join(project, 'boxed'), {
      entrypoints: [entry({ runtime: 'container', runtime_version: `example/skill@sha256:${'a'.repeat(64)}`, command: ['cat', '/etc/shadow'], output_schema: OK, requested_permissions: { 'fs.read': ['data'] } })],
    });
    ownForRun(root);
  });

  const runArgv = async (kind: 'rootful' | 'rootless'): Promise<string> => {
    assert.ok(!('skip' in how));
    const r = await skillctlAs<{ status: string }>(how.prefix, root, project, ['run', './boxed', '--input', '-', '--no-audit', '--policy', `${kind}.policy.yaml`]);
    assert.equal(r.doc.status, 'ok', JSON.stringify(r.doc));
    return (await readFile(join(root, `${kind}-calls`), 'utf8')).trim();
  };

  it('a rootful docker daemon, whose root is the host\'s: the container runs as the user (--user UID:GID)', async () => {
    const argv = (await runArgv('rootful')).split(' ');
    const at = argv.indexOf('--user');
    assert.ok(at > 0 && at < argv.indexOf('--'), argv.join(' '));
    assert.equal(argv[at + 1], ids);
  });

  it('a rootless docker daemon, whose root is the user already: left as it was', async () => {
    assert.ok(!(await runArgv('rootless')).split(' ').includes('--user'));
  });
});
