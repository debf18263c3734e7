// pin oci://, verify-pins --remote and run oci:// against the real docker-registry. The registry
// listens on loopback, which --remote contacts only with --private-origins (this lock is our own).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';

const READ_TEXT = join(process.cwd(), 'manifests', 'default', 'fs.read_text');
const READ_TREE = join(process.cwd(), 'manifests', 'default', 'fs.read_tree');

interface Lock {
  skills: { skill_id: string; source: string; origin?: { oci?: { reference: string; digest: string } } }[];
}

describe('pin, verify-pins --remote and run with oci:// origins', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let digest: string;
  let ref: string;
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });
  const codes = (r: CliRun): string[] => {
    const doc = json<{ error?: { code: string }; diagnostics?: { code: string }[] }>(r);
    return doc.error !== undefined ? [doc.error.code] : (doc.diagnostics ?? []).map((d) => d.code);
  };

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-lock-');
    // The pushed skill carries skillctl's project signature: this project trusts that key.
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/fs.read_text:0.1.0`;
    const pushed = cli(['push', READ_TEXT, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    digest = json<{ digest: string }>(pushed).digest;
    await writeFile(join(proj, 'in.txt'), 'hello\n');
    await writeFile(join(proj, 'input.json'), JSON.stringify({ path: 'in.txt' }));
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it('pin oci:// pulls into skills/<id>/ and records the origin; verify-pins passes offline and --remote', async () => {
    const r = cli(['pin', ref]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lock = JSON.parse(await readFile(join(proj, 'pins', 'skills.lock.json'), 'utf8')) as Lock;
    assert.deepEqual(lock.skills.map((s) => [s.skill_id, s.source, s.origin]), [['fs.read_text', 'skills/fs.read_text', { oci: { reference: ref, digest } }]]);
    assert.equal(cli(['verify-pins']).code, 0);
    assert.equal(cli(['verify-pins', '--remote', '--private-origins']).code, 0);
    // pin --all again: the same content from the same folder keeps its origin.
    assert.equal(cli(['pin', '--all']).code, 0);
    assert.deepEqual((JSON.parse(await readFile(join(proj, 'pins', 'skills.lock.json'), 'utf8')) as Lock).skills[0]?.origin, { oci: { reference: ref, digest } });
  });

  it('run oci://…@digest and run of the pinned tag use the cache; a tag no lock pins is OCI_TAG_UNPINNED', () => {
    const byDigest = cli(['run', `oci://${registry.host}/skills/fs.read_text@${digest}`, '--input', 'input.json', '--json']);
    assert.equal(byDigest.code, 0, byDigest.stdout + byDigest.stderr);
    assert.equal(json<{ output: { text: string } }>(byDigest).output.text, 'hello\n');
    assert.equal(cli(['run', ref, '--input', 'input.json']).code, 0);
    const unpinned = cli(['run', `oci://${registry.host}/skills/fs.read_text:latest`, '--input', 'input.json', '--json']);
    assert.equal(unpinned.code, 2);
    assert.deepEqual(codes(unpinned), ['OCI_TAG_UNPINNED']);
  });

  it('run of a digest not in the cache is OCI_NOT_CACHED; a cached layer that changed is OCI_DIGEST_MISMATCH', async () => {
    const missing = cli(['run', `oci://${registry.host}/skills/fs.read_text@sha256:${'1'.repeat(64)}`, '--input', 'input.json', '--json']);
    assert.equal(missing.code, 2);
    assert.deepEqual(codes(missing), ['OCI_NOT_CACHED']);
    // Every cached blob is rewritten with other bytes of the same length.
    const blobs = join(work, 'cache', 'skillctl', 'oci', 'blobs', 'sha256');
    for (const name of await readdir(blobs)) {
      const bytes = await readFile(join(blobs, name));
      if (bytes.length > 1000) await writeFile(join(blobs, name), Buffer.alloc(bytes.length, 0x41));
    }
    const corrupt = cli(['run', `oci://${registry.host}/skills/fs.read_text@${digest}`, '--input', 'input.json', '--json']);
    assert.equal(corrupt.code, 1, corrupt.stdout);
    assert.deepEqual(codes(corrupt), ['OCI_DIGEST_MISMATCH']);
  });

  it('a pin that claims an origin whose artifact holds other content is OCI_ORIGIN_MISMATCH with --remote, though the tag has not moved', async () => {
    // Another skill, pushed honestly to a tag of its own: the lock's fs.read_text pin is then made
    // to claim it as its origin (a hand edit, or files changed and re-pinned with the origin kept).
    const treeRef = `oci://${registry.host}/skills/fs.read_tree:0.1.0`;
    const pushed = cli(['push', READ_TREE, treeRef, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout);
    const treeDigest = json<{ digest: string }>(pushed).digest;
    const lockPath = join(proj, 'pins', 'skills.lock.json');
    const honest = await readFile(lockPath, 'utf8');
    await writeFile(lockPath, honest.replace(ref, treeRef).replace(digest, treeDigest));
    try {
      assert.equal(cli(['verify-pins']).code, 0, 'offline, nothing can tell');
      const r = cli(['verify-pins', '--remote', '--private-origins', '--json']);
      assert.deepEqual([r.code, codes(r)], [1, ['OCI_ORIGIN_MISMATCH']], r.stdout + r.stderr);
    } finally {
      await writeFile(lockPath, honest);
    }
    assert.equal(cli(['verify-pins', '--remote', '--private-origins']).code, 0, 'the honest lock passes');
  });

  it('a tag pushed over is OCI_TAG_DRIFT (exit 1) with --remote only; verify-pins stays offline', () => {
    const over = cli(['push', READ_TREE, ref, '--json']);
    assert.equal(over.code, 0, over.stdout);
    assert.equal(cli(['verify-pins']).code, 0);
    const r = cli(['verify-pins', '--remote', '--private-origins', '--json']);
    assert.equal(r.code, 1, r.stdout);
    assert.deepEqual(codes(r), ['OCI_TAG_DRIFT']);
    // The pins being committed, and a commit's, are asked about too (--remote was ignored there).
    const git = (args: string[]): void => void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: proj, stdio: 'ignore' });
    git(['init', '-q']);
    git(['add', '-A']);
    for (const tree of [['--staged'], ['--rev', 'HEAD']]) {
      if (tree[0] === '--rev') git(['commit', '-q', '-m', 'pins']);
      assert.equal(cli(['verify-pins', ...tree]).code, 0, tree.join(' '));
      const t = cli(['verify-pins', ...tree, '--remote', '--private-origins', '--json']);
      assert.deepEqual([t.code, codes(t)], [1, ['OCI_TAG_DRIFT']], `${tree.join(' ')}: ${t.stdout}${t.stderr}`);
    }
  });

  it('--remote against a registry that is gone gives its code, exit 2', async () => {
    await registry.stop();
    const r = cli(['verify-pins', '--remote', '--private-origins', '--json']);
    assert.equal(r.code, 2, r.stdout);
    assert.deepEqual(codes(r), ['OCI_UNREACHABLE']);
    registry = await startRegistry();
  });
});
