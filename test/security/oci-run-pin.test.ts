// Threat: a lock's origin digest names another artifact than the skill its pin pins, so that `run oci://…:TAG` runs that one.
// `run oci://HOST/REPO:TAG` takes the digest the lock's pin records for that tag and runs that
// artifact from the cache. The digest is the one field of the pin no offline check reads: the
// pre-merge `verify-pins` passes a lock whose pin still says fs.read_text (its id, version and
// digests, what a reviewer reads) but whose origin digest, one hex string, was changed to another
// artifact's. Any artifact in the cache does: one pulled for another project, or one planted
// there under its own digest by a skill granted the home (the cache checks only that a file
// hashes to its name). The run then ran fs.read_tree under the pin of fs.read_text. It must run
// only the skill the pin pins: RUN_PIN_MISMATCH, exit 1, nothing run.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { cachedInPlace } from '../helpers/oci-cache.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';

const READ_TEXT = join(process.cwd(), 'manifests', 'default', 'fs.read_text');
const READ_TREE = join(process.cwd(), 'manifests', 'default', 'fs.read_tree');

describe('run oci://…:TAG runs only the skill the pin of that tag pins', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let ref: string;
  let digest: string;
  let other: string;
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-run-pin-');
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/fs.read_text:0.1.0`;
    const pushed = cli(['push', READ_TEXT, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    digest = json<{ digest: string }>(pushed).digest;
    const pinned = cli(['pin', ref]);
    assert.equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    // Another skill's artifact in the same cache, under its own digest (written by hand, as a
    // skill granted the home could; a pull of it for another project leaves the same files).
    await mkdir(join(work, 'elsewhere'));
    other = await cachedInPlace(READ_TREE, work, join(work, 'cache'), join(work, 'elsewhere'));
    await writeFile(join(proj, 'in.txt'), 'hello\n');
    await writeFile(join(proj, 'input.json'), JSON.stringify({ path: 'in.txt' }));
    await writeFile(join(proj, 'tree.json'), JSON.stringify({ root: '.' }));
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it('the honest lock: the pinned tag runs fs.read_text', () => {
    const r = cli(['run', ref, '--input', 'input.json', '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(json<{ output: { text: string } }>(r).output.text, 'hello\n');
  });

  it('a lock whose origin digest alone was changed to another cached artifact: verify-pins passes offline, the run refuses it (RUN_PIN_MISMATCH, exit 1)', async () => {
    const lockPath = join(proj, 'pins', 'skills.lock.json');
    const honest = await readFile(lockPath, 'utf8');
    assert.ok(honest.includes(digest));
    await writeFile(lockPath, honest.replace(digest, other));
    try {
      assert.equal(cli(['verify-pins']).code, 0, 'offline, nothing reads the origin digest');
      // Input fs.read_tree takes, so that nothing but the pin check stands between it and its run.
      const r = cli(['run', ref, '--input', 'tree.json', '--json']);
      const doc = json<{ output: unknown; diagnostics: { code: string }[] }>(r);
      assert.deepEqual([r.code, doc.diagnostics.some((d) => d.code === 'RUN_PIN_MISMATCH'), doc.output], [1, true, null], r.stdout + r.stderr);
    } finally {
      await writeFile(lockPath, honest);
    }
  });
});
