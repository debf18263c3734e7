// Threat: a skill rewrites a verified capability between `registry publish oci://…`'s pull and its read of the files, so that the registry publishes what no signer signed.
// `registry publish oci://` pulled the artifact (manifest, layer and signers verified) into a
// scratch folder `skillctl-publish-oci-*` directly in the temporary directory, and then read the
// bundle files from there. A program of another run whose policy lets skills write the temporary
// directory (shell.exec_safe's python3, under bubblewrap) watched for the folder and rewrote
// capability.json in between: 6 publishes of 10 put its text in the registry. Now the scratch
// folder is in skillctl's own directory there (`skillctl-<uid>`, which every run protects:
// read-only in that sandbox), and what publish reads must hash as the verified layer unpacked
// (else OCI_DIGEST_MISMATCH, exit 1, nothing published). Against the real distribution registry.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codesOf, json, skillctl } from '../helpers/cli.js';
import { startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { fixture } from '../helpers/paths.js';
import { removeDir } from '../helpers/project.js';
import { tmpRacer, type TmpRacer } from '../helpers/tmp-racer.js';

const CAPABILITY = fixture('registry', 'oci', 'skill-with-capability');
const PUBLISHES = 8;

/**
 * Watches the temporary directory `argv[1]` (every folder in it, skillctl's own included) for a
 * capability.json of a publish, and rewrites it; prints how many it found and how many it changed.
 */
const RACER = `import os, sys, time
t = sys.argv[1]
open(os.path.join(t, 'racer-ready'), 'w').write('1')
seen, wrote, end = set(), 0, time.time() + 100
while time.time() < end and not os.path.exists(os.path.join(t, 'racer-stop')):
    for d, dirs, files in os.walk(t):
        if 'publish' in d and 'capability.json' in files and '.skillctl-pull-' not in d:
            f = os.path.join(d, 'capability.json')
            seen.add(f)
            try:
                s = open(f).read()
                if 'PWNED' not in s:
                    open(f, 'w').write(s.replace('"description": "', '"description": "PWNED '))
                    wrote += 1
            except OSError:
                pass
print('seen %d wrote %d' % (len(seen), wrote))
`;

describe('threat: a capability rewritten between registry publish oci://’s pull and its read', () => {
  let registry: RunningRegistry;
  let racer: TmpRacer;
  let work: string;
  let env: Record<string, string>;
  let ref: string;

  before(async () => {
    registry = await startRegistry();
    racer = await tmpRacer('skillctl-publish-oci-race-', RACER);
    work = racer.work;
    await mkdir(join(work, 'docker'));
    env = { ...racer.env, DOCKER_CONFIG: join(work, 'docker'), XDG_CACHE_HOME: join(work, 'cache') };
    ref = `oci://${registry.host}/team/weights:1`;
    const pushed = skillctl(['push', CAPABILITY, ref, '--json'], { cwd: work, env, timeoutMs: 120_000 });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it(`a program of a run granted the temporary directory races ${PUBLISHES} publishes: each publishes the pushed files or is refused (OCI_DIGEST_MISMATCH), never the racer's`, async () => {
    const published = skillctl(['registry', 'publish', '--registry', join(work, 'clean'), CAPABILITY, '--json'], { cwd: work, env, timeoutMs: 120_000 });
    assert.equal(published.code, 0, published.stdout + published.stderr);
    const digest = json<{ results: { digest: string }[] }>(published).results[0]?.digest;
    const racing = await racer.start();
    let raced: { seen: number; wrote: number; stdout: string } | undefined;
    try {
      for (let i = 0; i < PUBLISHES; i++) {
        const into = join(work, `reg-${i}`);
        const r = skillctl(['registry', 'publish', '--registry', into, ref, '--json'], { cwd: work, env, timeoutMs: 120_000 });
        if (r.code === 0) {
          assert.equal(json<{ results: { digest: string }[] }>(r).results[0]?.digest, digest, `publish ${i} published other files`);
          assert.doesNotMatch(await readFile(join(into, 'index.json'), 'utf8'), /PWNED/);
        } else {
          assert.equal(r.code, 1, r.stdout + r.stderr);
          assert.deepEqual([...new Set(codesOf(r))], ['OCI_DIGEST_MISMATCH'], r.stdout + r.stderr);
          assert.equal(existsSync(join(into, 'index.json')), false);
        }
      }
    } finally {
      raced = await racing.stop();
    }
    // The racer found the scratch folders.
    assert.ok(raced.seen > 0, `the racer saw no publish: ${raced.stdout}`);
  });
});
