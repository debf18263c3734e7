import { realpathSync } from 'node:fs';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Sha256Digest } from '../../../src/core/digest/index.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { compareVersions, lockPinLookup, resolveSkill, snapshotBundle, verifiedPinLookup, type SkillPin } from '../../../src/core/run/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { tgz } from '../../helpers/tar.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { writeLock } from '../../helpers/run.js';

async function pinOf(dir: string, source: string): Promise<SkillPin> {
  const m = JSON.parse(await readFile(join(dir, 'skill.json'), 'utf8')) as Record<string, string>;
  return { skill_id: m.skill_id as string, skill_version: m.skill_version as string, source, manifest_digest: m.manifest_digest as string, content_digest: m.content_digest as string };
}

function codes(r: { diagnostics: readonly { code: string; severity: string }[] }): string[] {
  return r.diagnostics.filter((d) => d.severity !== 'warning').map((d) => d.code).sort();
}

describe('resolveSkill', () => {
  const tmp = tempDir('skillctl-resolve-');
  let root: string;
  let project: string;
  let pkg: string;
  before(async () => {
    root = realpathSync(tmp);
    project = join(root, 'project');
    pkg = join(root, 'package');
    const one = await writeBundle(join(project, 'skills', 'a-0.1.0'), { skill_id: 'test.a', skill_version: '0.1.0', entrypoints: [entry()], files: { 'x.txt': '1' } });
    const two = await writeBundle(join(project, 'skills', 'a-0.2.0'), { skill_id: 'test.a', skill_version: '0.2.0', entrypoints: [entry()], files: { 'x.txt': '2' } });
    const drift = await writeBundle(join(project, 'skills', 'drift'), { skill_id: 'test.drift', entrypoints: [entry()], files: { 'x.txt': 'pinned' } });
    // Two pre-releases whose numeric parts order differently as text: rc.10 is the newer.
    const rc2 = await writeBundle(join(project, 'skills', 'sv-rc.2'), { skill_id: 'sv.demo', skill_version: '1.0.0-rc.2', entrypoints: [entry()], files: { 'x.txt': 'rc.2' } });
    const rc10 = await writeBundle(join(project, 'skills', 'sv-rc.10'), { skill_id: 'sv.demo', skill_version: '1.0.0-rc.10', entrypoints: [entry()], files: { 'x.txt': 'rc.10' } });
    const pins = [
      await pinOf(one, 'skills/a-0.1.0'),
      await pinOf(two, 'skills/a-0.2.0'),
      await pinOf(drift, 'skills/drift'),
      await pinOf(rc10, 'skills/sv-rc.10'),
      await pinOf(rc2, 'skills/sv-rc.2'),
    ];
    // The drifted bundle is rewritten, self-consistent, after it was pinned.
    await writeBundle(drift, { skill_id: 'test.drift', entrypoints: [entry()], files: { 'x.txt': 'changed' } });
    await writeLock(project, pins as never[]);
    await writeBundle(join(pkg, 'manifests', 'default', 'test.builtin'), { skill_id: 'test.builtin', entrypoints: [entry()] });
    const shipped = await writeBundle(join(pkg, 'manifests', 'default', 'test.shipped'), { skill_id: 'test.shipped', entrypoints: [entry()], files: { 'x.txt': 'a' } });
    const shippedPin = await pinOf(shipped, 'manifests/default/test.shipped');
    await writeFile(join(shipped, 'x.txt'), 'tampered');
    await writeBundle(shipped, { skill_id: 'test.shipped', entrypoints: [entry()] });
    await mkdir(join(pkg, 'pins'));
    await writeFile(join(pkg, 'pins', 'skills.lock.json'), JSON.stringify({ skills: [shippedPin] }));
  });

  const opts = () => ({ cwd: project, projectRoot: project, packageRoot: pkg });

  it("takes a skill id from the project's lock, the highest version unless one is named", async () => {
    const latest = await resolveSkill('test.a', opts());
    assert.equal(latest.skill?.origin, 'lock');
    assert.equal(latest.skill?.manifest.skill_version, '0.2.0');
    assert.equal((await resolveSkill('test.a@0.1.0', opts())).skill?.manifest.skill_version, '0.1.0');
    assert.deepEqual(codes(await resolveSkill('test.a@9.9.9', opts())), ['RUN_SKILL_NOT_FOUND']);
  });

  it('takes the highest version by semver precedence, not by text: 1.0.0-rc.10 over 1.0.0-rc.2', async () => {
    const latest = await resolveSkill('sv.demo', opts());
    assert.deepEqual(codes(latest), []);
    assert.equal(latest.skill?.manifest.skill_version, '1.0.0-rc.10');
    assert.equal((await resolveSkill('sv.demo@1.0.0-rc.2', opts())).skill?.manifest.skill_version, '1.0.0-rc.2');
  });

  it('refuses a bundle whose digests no longer match its pin', async () => {
    const r = await resolveSkill('test.drift', opts());
    assert.equal(r.skill, undefined);
    assert.deepEqual(codes(r), ['RUN_PIN_MISMATCH']);
    assert.equal(r.identity?.skill_id, 'test.drift');
  });

  it('falls back to the default bundle shipped in the package, checked against the package lock', async () => {
    const r = await resolveSkill('test.builtin', opts());
    assert.equal(r.skill?.origin, 'default');
    assert.deepEqual(codes(r), ['RUN_UNPINNED']);
    const tampered = await resolveSkill('test.shipped', opts());
    assert.deepEqual(codes(tampered), ['RUN_PIN_MISMATCH']);
    const noProject = await resolveSkill('test.builtin', { cwd: root, packageRoot: pkg });
    assert.equal(noProject.skill?.origin, 'default');
  });

  it('uses the build-time validation of an unchanged default bundle, and validates a changed one in full', async () => {
    const dir = join(pkg, 'manifests', 'default', 'test.snap');
    await writeBundle(dir, { skill_id: 'test.snap', entrypoints: [entry()], files: { 'x.txt': 'a' } });
    const snap = await snapshotBundle(dir, 'builtin:test.snap');
    assert.ok(snap);
    const hit = await resolveSkill('test.snap', { ...opts(), defaultSnapshots: { 'test.snap': snap } });
    assert.equal(hit.skill?.manifest, snap.manifest, 'the recorded result is used');
    assert.equal(hit.skill?.file, 'builtin:test.snap/skill.json');
    const full = await resolveSkill('test.snap', opts());
    assert.deepEqual(full.identity, hit.identity, 'the same result as a full validation');
    await writeFile(join(dir, 'x.txt'), 'changed');
    const changed = await resolveSkill('test.snap', { ...opts(), defaultSnapshots: { 'test.snap': snap } });
    assert.notEqual(changed.skill?.manifest, snap.manifest);
    assert.ok(codes(changed).includes('CONTENT_DIGEST_MISMATCH'));
    assert.equal(await snapshotBundle(dir, 'builtin:test.snap'), undefined, 'an invalid bundle is not recorded');
  });

  it('runs a directory as given, and says it is unpinned', async () => {
    const r = await resolveSkill('./skills/a-0.1.0', opts());
    assert.equal(r.skill?.origin, 'path');
    assert.deepEqual(codes(r), ['RUN_UNPINNED']);
  });

  it('reports unknown skills, bad targets, missing directories and broken lock files', async () => {
    assert.deepEqual(codes(await resolveSkill('test.nowhere', opts())), ['RUN_SKILL_NOT_FOUND']);
    assert.deepEqual(codes(await resolveSkill('Not A Skill', opts())), ['RUN_TARGET_INVALID']);
    assert.deepEqual(codes(await resolveSkill('./missing', opts())), ['RUN_TARGET_INVALID']);
    const broken = join(root, 'broken');
    await mkdir(join(broken, 'pins'), { recursive: true });
    await writeFile(join(broken, 'pins', 'skills.lock.json'), '{"skills": [{"skill_id": 1}]}');
    assert.deepEqual(codes(await resolveSkill('test.a', { cwd: broken, projectRoot: broken })), ['LOCK_INVALID', 'RUN_LOCK_INVALID']);
  });

  it('refuses an invalid bundle', async () => {
    const bad = join(root, 'bad');
    await mkdir(bad);
    await writeFile(join(bad, 'skill.json'), '{"skill_id": "x"}');
    const r = await resolveSkill(bad, opts());
    assert.equal(r.skill, undefined);
    assert.ok(codes(r).includes('RUN_BUNDLE_INVALID'));
    // The manifest loader's one error, as validate gives it.
    assert.deepEqual([r.loaderError?.error_code, r.loaderError?.skill_id, r.loaderError?.validation_stage], ['ERR_SCHEMA_INVALID', 'x', 'schema']);
  });
});

describe('resolveSkill: .tgz archives', () => {
  const tmp = tempDir('skillctl-resolve-tgz-');
  let root: string;
  let scratch: string;
  let archive: string;
  let archiveDigest: string;
  let pin: SkillPin;
  before(async () => {
    root = realpathSync(tmp);
    scratch = join(root, 'scratch');
    await mkdir(scratch);
    const dir = await writeBundle(join(root, 'src', 'b'), { skill_id: 'test.b', skill_version: '1.2.0', entrypoints: [entry()], files: { 'x.txt': 'b' } });
    await mkdir(join(root, 'dist'));
    const packed = await packBundle(dir, join(root, 'dist'));
    assert.ok(packed.ok && packed.archive !== undefined && packed.digest !== undefined);
    archive = packed.archive;
    archiveDigest = packed.digest;
    pin = { ...(await pinOf(dir, 'dist/test.b-1.2.0.tgz')), archive_digest: archiveDigest };
    await writeLock(root, [pin as never]);
  });

  const opts = () => ({ cwd: root, projectRoot: root, scratchDir: scratch });

  it('unpacks an archive named on the command line into a fresh scratch directory, removed by cleanup', async () => {
    const r = await resolveSkill('dist/test.b-1.2.0.tgz', opts());
    assert.equal(r.skill?.origin, 'path');
    assert.equal(r.skill?.manifest.skill_id, 'test.b');
    assert.deepEqual(codes(r), ['RUN_UNPINNED']);
    const dir = r.skill?.dir as string;
    assert.ok(dir.startsWith(`${scratch}/skillctl-run-`), dir);
    assert.equal(await readFile(join(dir, 'x.txt'), 'utf8'), 'b');
    await r.cleanup?.();
    assert.deepEqual(await readdir(scratch), []);
  });

  it('an archive whose path is too long under the scratch directory is not run, and leaves nothing there', async () => {
    // A 4,040-byte path, within the archive bound: under a 200-byte scratch directory it passes PATH_MAX.
    const long = `${`${'a'.repeat(255)}/`.repeat(15)}${'f'.repeat(200)}`;
    const dir = await writeBundle(join(root, 'src', 'long'), { skill_id: 'test.long', entrypoints: [entry()], files: { 'x.txt': 'b', [long]: 'deep' } });
    const packed = await packBundle(dir, join(root, 'dist'));
    assert.ok(packed.ok, packed.ok ? '' : packed.validation?.diagnostics.map((d) => d.code).join());
    const deepScratch = join(scratch, 'c'.repeat(200));
    await mkdir(deepScratch);
    const r = await resolveSkill('dist/test.long-0.1.0.tgz', { ...opts(), scratchDir: deepScratch });
    assert.equal(r.skill, undefined);
    assert.deepEqual(codes(r), ['ARCHIVE_TARGET_INVALID', 'RUN_BUNDLE_INVALID']);
    assert.equal(r.diagnostics.find((d) => d.code === 'ARCHIVE_TARGET_INVALID')?.file, `dist/test.long-0.1.0.tgz/${long}`);
    assert.equal(r.diagnostics.find((d) => d.code === 'RUN_BUNDLE_INVALID')?.message, `dist/test.long-0.1.0.tgz could not be unpacked in ${deepScratch}; it is not run`);
    assert.deepEqual(await readdir(deepScratch), [], 'nothing is left of the unpacking');
    await rmdir(deepScratch);
  });

  it('takes a pinned archive from the lock, and checks the archive digest against the pin', async () => {
    const r = await resolveSkill('test.b', opts());
    assert.equal(r.skill?.origin, 'lock');
    assert.equal(r.skill?.pin?.archive_digest, archiveDigest);
    await r.cleanup?.();
    const original = await readFile(archive);
    try {
      // Same bundle, different bytes (a comment in the gzip header): not the archive that was pinned.
      const other = Buffer.from(original);
      other[9] = (other[9] as number) ^ 1;
      await writeFile(archive, other);
      const mismatch = await resolveSkill('test.b', opts());
      assert.equal(mismatch.skill, undefined);
      assert.deepEqual(codes(mismatch), ['RUN_PIN_MISMATCH']);
      assert.deepEqual(await readdir(scratch), [], 'nothing is unpacked for a refused archive');
    } finally {
      await writeFile(archive, original);
    }
  });

  it('an archive given by path with the digest it was verified as (run oci://) is refused when it no longer hashes to it', async () => {
    const ok = await resolveSkill('dist/test.b-1.2.0.tgz', { ...opts(), archiveDigest: archiveDigest as Sha256Digest });
    assert.equal(ok.skill?.manifest.skill_id, 'test.b');
    await ok.cleanup?.();
    const swapped = await resolveSkill('dist/test.b-1.2.0.tgz', { ...opts(), archiveDigest: `sha256:${'0'.repeat(64)}` });
    assert.equal(swapped.skill, undefined);
    assert.deepEqual(codes(swapped), ['OCI_DIGEST_MISMATCH', 'RUN_BUNDLE_INVALID']);
    assert.deepEqual(await readdir(scratch), [], 'nothing is unpacked for a refused archive');
  });

  it('refuses a hostile archive: nothing is written outside the scratch directory, which is removed', async () => {
    const hostile = join(root, 'hostile.tgz');
    await writeFile(hostile, tgz([{ name: 'skill.json', data: '{}' }, { name: '../escaped.txt', data: 'x' }]));
    const r = await resolveSkill('./hostile.tgz', opts());
    assert.equal(r.skill, undefined);
    assert.deepEqual(codes(r), ['ARCHIVE_PATH_UNSAFE', 'RUN_BUNDLE_INVALID']);
    assert.deepEqual(await readdir(scratch), []);
    await assert.rejects(readFile(join(scratch, '..', 'escaped.txt')));
  });

  it('refuses an archive that is not gzip, and one with no scratch directory to unpack into', async () => {
    await writeFile(join(root, 'junk.tgz'), 'not an archive');
    assert.ok(codes(await resolveSkill('junk.tgz', opts())).includes('RUN_BUNDLE_INVALID'));
    assert.deepEqual(codes(await resolveSkill('./missing.tgz', opts())), ['RUN_TARGET_INVALID']);
    assert.deepEqual(codes(await resolveSkill('dist/test.b-1.2.0.tgz', { cwd: root })), ['RUN_TARGET_INVALID']);
    assert.deepEqual(codes(await resolveSkill('dist/test.b-1.2.0.tgz', { ...opts(), scratchDir: join(root, 'no-such-scratch') })), ['RUN_TARGET_INVALID']);
  });
});

describe("the lock lookups (the project's, verified; the package's) and Agent Skills pins", () => {
  const tmp = tempDir('skillctl-lookup-');
  const digest = `sha256:${'0'.repeat(64)}`;
  const pin = (over: Record<string, unknown>): Record<string, unknown> => ({ skill_version: '1.0.0', manifest_digest: digest, content_digest: digest, files_digest: digest, signers: [], ...over });
  const withLock = async (skills: Record<string, unknown>[]): Promise<string> => {
    const root = join(tmp, String(skills.length));
    await mkdir(join(root, 'pins'), { recursive: true });
    await writeLock(root, skills as never[]);
    return root;
  };
  it('an agent-skill pin has nothing to run: RUN_BUNDLE_INVALID with the convert hint', async () => {
    const root = await withLock([pin({ kind: 'agent-skill', skill_id: 'pdf-notes', source: 'manifests/pdf-notes' })]);
    for (const lookup of [lockPinLookup, verifiedPinLookup]) {
      const v = await lookup(root, 'pdf-notes', undefined);
      assert.deepEqual([v.pin, v.diagnostics.map((d) => d.code)], [undefined, ['RUN_BUNDLE_INVALID']]);
    }
    const r = await lockPinLookup(root, 'pdf-notes', undefined);
    assert.equal(r.pin, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['RUN_BUNDLE_INVALID']);
    assert.match(r.diagnostics[0]?.hint ?? '', /skillctl convert manifests\/pdf-notes/);
  });

  it('a manifest bundle pinned under the same id is run instead, even at a lower version', async () => {
    const root = await withLock([pin({ kind: 'agent-skill', skill_id: 'pdf-notes', skill_version: '2.0.0', source: 'a' }), pin({ skill_id: 'pdf-notes', source: 'b' })]);
    const r = await lockPinLookup(root, 'pdf-notes', undefined);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.pin?.source, 'b');
    assert.deepEqual((await lockPinLookup(root, 'pdf-notes', '2.0.0')).diagnostics.map((d) => d.code), ['RUN_BUNDLE_INVALID']);
  });
});

describe('compareVersions', () => {
  it('orders by semver precedence', () => {
    const sorted = ['1.0.0', '0.10.0', '0.2.0', '1.0.0-rc.1', '0.2.1'].sort(compareVersions);
    assert.deepEqual(sorted, ['0.2.0', '0.2.1', '0.10.0', '1.0.0-rc.1', '1.0.0']);
  });

  it('orders pre-releases as semver 2.0.0 §11 does: numeric identifiers as numbers, below alphanumeric ones', () => {
    // The specification's own example, shuffled, and rc.10 after rc.2.
    const spec = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0-rc.2', '1.0.0-rc.10', '1.0.0'];
    const shuffled = [spec[5], spec[9], spec[0], spec[8], spec[2], spec[7], spec[4], spec[1], spec[6], spec[3]] as string[];
    assert.deepEqual(shuffled.sort(compareVersions), spec);
  });

  it('gives a total order: build metadata by text at equal precedence, non-versions below versions', () => {
    assert.equal(compareVersions('1.0.0+b', '1.0.0+a'), 1);
    assert.equal(compareVersions('1.0.0+a', '1.0.0'), 1);
    assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
    assert.deepEqual(['1.0.0', 'latest', '0.0.1', 'dev'].sort(compareVersions), ['dev', 'latest', '0.0.1', '1.0.0']);
  });
});
