// push and pull oci:// against the real CNCF distribution registry (Debian's docker-registry) on a
// loopback port, and skopeo reading what push wrote and writing what pull reads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { hasSkopeo, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';

interface PushDoc {
  ok: boolean;
  reference: string;
  digest: string;
  layer: { digest: string; size: number; mediaType: string };
  uploaded: { config: boolean; layer: boolean };
  signature: { signer: string; via: string } | null;
}
interface PullDoc {
  ok: boolean;
  digest: string;
  path: string;
  kind: string;
  outcome: string;
  from_cache: boolean;
  signers: string[] | null;
}

const BUNDLE = join('manifests', 'default', 'fs.read_text');

describe('push and pull oci:// with docker-registry', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: Record<string, string>;
  const cli = (args: string[], cwd = work): CliRun => skillctl(args, { cwd, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-');
    // An empty Docker config: no credentials from the user running the tests.
    await mkdir(join(work, 'docker'));
    env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'docker') };
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  it('pushes a bundle: layer digest is the pack archive digest, manifest digest the same on every push', async () => {
    const ref = `oci://${registry.host}/skills/fs.read_text:0.1.0`;
    const first = cli(['push', join(process.cwd(), BUNDLE), ref, '--json']);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const doc = json<PushDoc>(first);
    assert.deepEqual(doc.uploaded, { config: true, layer: true });
    const packed = cli(['pack', join(process.cwd(), BUNDLE), '--out', join(work, 'packed'), '--json']);
    assert.equal(doc.layer.digest, json<{ digest: string }>(packed).digest);
    assert.equal(doc.layer.mediaType, 'application/vnd.cncf.skill.bundle.v1.tar+gzip');
    assert.equal(doc.reference, `${ref}@${doc.digest}`);
    // The same source again: the same manifest digest, and no blob sent twice.
    const second = json<PushDoc>(cli(['push', join(process.cwd(), BUNDLE), ref, '--json']));
    assert.equal(second.digest, doc.digest);
    assert.deepEqual(second.uploaded, { config: false, layer: false });
    // The archive pack wrote pushes to the same manifest.
    const fromArchive = json<PushDoc>(cli(['push', join(work, 'packed', 'fs.read_text-0.1.0.tgz'), `oci://${registry.host}/skills/archive:1`, '--json']));
    assert.equal(fromArchive.digest, doc.digest);
  });

  it('an archive pushes to the same manifest whatever its file is named: the layer title is <skill_id>-<skill_version>.tgz', async () => {
    const packed = join(work, 'renamed');
    await mkdir(packed, { recursive: true });
    assert.equal(cli(['pack', join(process.cwd(), BUNDLE), '--out', packed, '--json']).code, 0);
    const fromFolder = json<PushDoc>(cli(['push', join(process.cwd(), BUNDLE), `oci://${registry.host}/skills/named:1`, '--json']));
    // The same bytes under the name a download or a build step gave them: the title once said so, and the manifest digest changed.
    await cp(join(packed, 'fs.read_text-0.1.0.tgz'), join(packed, 'build-output.tgz'));
    const renamed = cli(['push', join(packed, 'build-output.tgz'), `oci://${registry.host}/skills/named:2`, '--json']);
    assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr);
    assert.equal(json<PushDoc>(renamed).digest, fromFolder.digest);
  });

  it('pulls by tag into skills/<id>/ and by digest from the cache; the files are the bundle', async () => {
    const proj = join(work, 'proj-bundle');
    await mkdir(proj);
    const pushed = json<PushDoc>(cli(['push', join(process.cwd(), BUNDLE), `oci://${registry.host}/skills/fs.read_text:pull`, '--json']));
    const r = cli(['pull', `oci://${registry.host}/skills/fs.read_text:pull`, '--json'], proj);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<PullDoc>(r);
    assert.equal(doc.digest, pushed.digest);
    assert.equal(doc.path, join('skills', 'fs.read_text'));
    assert.equal(doc.outcome, 'written');
    assert.equal(doc.from_cache, false);
    for (const name of await readdir(join(process.cwd(), BUNDLE))) {
      assert.deepEqual(await readFile(join(proj, 'skills', 'fs.read_text', name)), await readFile(join(process.cwd(), BUNDLE, name)), name);
    }
    assert.equal(cli(['validate', join('skills', 'fs.read_text')], proj).code, 0);
    // By digest, into another folder: the cache answers, the registry is not asked.
    const byDigest = cli(['pull', `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`, '--out', 'vendor', '--json'], proj);
    assert.equal(byDigest.code, 0, byDigest.stdout);
    assert.equal(json<PullDoc>(byDigest).from_cache, true);
    assert.equal(json<PullDoc>(byDigest).path, join('vendor', 'fs.read_text'));
    // Again by digest: the cached blobs are re-hashed, the folder validated and compared with the
    // cached layer's listing (read in memory, not unpacked); it holds exactly those files, so
    // nothing is unpacked or written.
    const again = json<PullDoc>(cli(['pull', `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`, '--out', 'vendor', '--json'], proj));
    assert.deepEqual([again.outcome, again.from_cache], ['unchanged', true]);
    // An edited cached layer is found by that comparison (removed, fetched again from the
    // registry): the folder is still found unchanged, and the cache is whole again.
    const layerPath = join(work, 'cache', 'skillctl', 'oci', 'blobs', 'sha256', pushed.layer.digest.slice('sha256:'.length));
    await writeFile(layerPath, 'edited in the cache');
    const refetchedInPlace = json<PullDoc>(cli(['pull', `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`, '--out', 'vendor', '--json'], proj));
    assert.deepEqual([refetchedInPlace.outcome, refetchedInPlace.from_cache], ['unchanged', false]);
    assert.equal(sha256(await readFile(layerPath)), pushed.layer.digest);
    const fromCache = json<PullDoc>(cli(['pull', `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`, '--out', 'vendor2', '--json'], proj));
    assert.deepEqual([fromCache.outcome, fromCache.from_cache], ['written', true]);
    // A folder changed since is not taken for the same content: the full pull refuses to overwrite it.
    const changed = join(proj, 'vendor', 'fs.read_text', (await readdir(join(proj, 'vendor', 'fs.read_text'))).find((n) => n !== 'skill.yaml') as string);
    await writeFile(changed, 'changed\n');
    const refused = cli(['pull', `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`, '--out', 'vendor', '--json'], proj);
    assert.deepEqual([refused.code, json<{ error?: { code: string } }>(refused).error?.code], [2, 'OUTPUT_EXISTS']);
    assert.equal(await readFile(changed, 'utf8'), 'changed\n');
    // Pulled again: the folder already holds it, nothing is written.
    assert.equal(json<PullDoc>(cli(['pull', `oci://${registry.host}/skills/fs.read_text:pull`, '--json'], proj)).outcome, 'unchanged');
  });

  it('never takes a folder whose manifest was edited (digests fixed) for the pulled skill, from the cache or not', async () => {
    const proj = join(work, 'proj-manifest');
    await mkdir(proj);
    const pushed = json<PushDoc>(cli(['push', join(process.cwd(), BUNDLE), `oci://${registry.host}/skills/fs.read_text:edited`, '--json']));
    const ref = `oci://${registry.host}/skills/fs.read_text@${pushed.digest}`;
    assert.equal(cli(['pull', ref, '--out', 'vendor'], proj).code, 0);
    // Its own content digest stays the same: skill.yaml is not part of its content.
    const manifest = join(proj, 'vendor', 'fs.read_text', 'skill.yaml');
    const edited = (await readFile(manifest, 'utf8')).replace('max_memory: 256', 'max_memory: 4096');
    await writeFile(manifest, edited);
    assert.equal(cli(['validate', '--fix', join('vendor', 'fs.read_text')], proj).code, 0);
    const fixed = await readFile(manifest, 'utf8');
    // By digest, with the blobs in the cache: not "unchanged".
    const cached = cli(['pull', ref, '--out', 'vendor', '--json'], proj);
    assert.deepEqual([cached.code, json<{ error?: { code: string } }>(cached).error?.code], [2, 'OUTPUT_EXISTS']);
    // By tag with an empty cache (the layer unpacked and compared): the same.
    const fresh = skillctl(['pull', `oci://${registry.host}/skills/fs.read_text:edited`, '--out', 'vendor', '--json'], { cwd: proj, env: { ...env, XDG_CACHE_HOME: join(proj, 'cache') }, timeoutMs: 120_000 });
    assert.deepEqual([fresh.code, json<{ error?: { code: string } }>(fresh).error?.code], [2, 'OUTPUT_EXISTS']);
    assert.equal(await readFile(manifest, 'utf8'), fixed);
    // --force puts the pulled skill back.
    assert.equal(cli(['pull', ref, '--out', 'vendor', '--force'], proj).code, 0);
    assert.deepEqual(await readFile(manifest), await readFile(join(process.cwd(), BUNDLE, 'skill.yaml')));
  });

  it('a SKILL.md folder goes to .agents/skills/<name>/; a changed folder there is kept unless --force', async () => {
    const proj = join(work, 'proj-md');
    await mkdir(proj);
    const ref = `oci://${registry.host}/skills/pdf-notes:1.2.0`;
    assert.equal(cli(['push', PDF_NOTES_DIR, ref]).code, 0);
    const r = cli(['pull', ref, '--json'], proj);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(json<PullDoc>(r).path, join('.agents', 'skills', 'pdf-notes'));
    assert.deepEqual(await readFile(join(proj, '.agents', 'skills', 'pdf-notes', 'SKILL.md')), await readFile(join(PDF_NOTES_DIR, 'SKILL.md')));
    await writeFile(join(proj, '.agents', 'skills', 'pdf-notes', 'local.md'), 'mine\n');
    const refused = cli(['pull', ref, '--json'], proj);
    assert.equal(refused.code, 2);
    assert.equal(json<{ error: { code: string } }>(refused).error.code, 'OUTPUT_EXISTS');
    assert.equal(await readFile(join(proj, '.agents', 'skills', 'pdf-notes', 'local.md'), 'utf8'), 'mine\n');
    assert.equal(cli(['pull', ref, '--force'], proj).code, 0);
    assert.deepEqual((await readdir(join(proj, '.agents', 'skills'))).sort(), ['pdf-notes']);
    assert.ok(!(await readdir(join(proj, '.agents', 'skills', 'pdf-notes'))).includes('local.md'));
  });

  it('uploads a 50 MB layer in chunks and pulls it back byte for byte', async () => {
    const dir = join(work, 'big', 'pdf-notes');
    await cp(PDF_NOTES_DIR, dir, { recursive: true });
    const big = randomBytes(50 * 1024 * 1024);
    await writeFile(join(dir, 'assets.bin'), big);
    const ref = `oci://${registry.host}/skills/big:1`;
    const r = cli(['push', dir, ref, '--chunk-mib', '8', '--json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(json<PushDoc>(r).layer.size > 50 * 1024 * 1024);
    const proj = join(work, 'proj-big');
    await mkdir(proj);
    assert.equal(cli(['pull', ref, '--out', '.'], proj).code, 0);
    assert.equal(sha256(await readFile(join(proj, 'pdf-notes', 'assets.bin'))), sha256(big));
  });

  it('a missing tag is OCI_NOT_FOUND (exit 2) and writes nothing', async () => {
    const proj = join(work, 'proj-missing');
    await mkdir(proj);
    const r = cli(['pull', `oci://${registry.host}/skills/none:1`, '--json'], proj);
    assert.equal(r.code, 2);
    assert.equal(json<{ error: { code: string; message: string } }>(r).error.code, 'OCI_NOT_FOUND');
    assert.match(json<{ error: { message: string } }>(r).error.message, /MANIFEST_UNKNOWN|NAME_UNKNOWN/);
    assert.deepEqual(await readdir(proj), []);
  });

  it('an unreachable registry is OCI_UNREACHABLE (exit 2)', () => {
    const r = cli(['pull', 'oci://127.0.0.1:1/skills/x:1', '--json']);
    assert.equal(r.code, 2);
    assert.equal(json<{ error: { code: string } }>(r).error.code, 'OCI_UNREACHABLE');
  });

  it('push --sign attaches a referrer through the sha256-<hex> tag; pull --min-signers counts trusted keys', async () => {
    const proj = join(work, 'proj-signed');
    await mkdir(proj);
    const k = cli(['keygen', '--signer', 'alice', '--out', join(work, 'alice.key'), '--keys', join(work, 'keys.json'), '--json']);
    assert.equal(k.code, 0, k.stdout);
    cli(['keygen', '--signer', 'mallory', '--out', join(work, 'mallory.key'), '--keys', join(work, 'other-keys.json')]);
    const ref = `oci://${registry.host}/skills/signed:1`;
    const pushed = cli(['push', join(process.cwd(), BUNDLE), ref, '--sign', join(work, 'alice.key'), '--signer', 'alice', '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    const doc = json<PushDoc>(pushed);
    // distribution 2.8 has no referrers API: the fallback tag.
    assert.deepEqual(doc.signature && { signer: doc.signature.signer, via: doc.signature.via }, { signer: 'alice', via: 'tag' });
    const ok = cli(['pull', ref, '--min-signers', '1', '--keys', join(work, 'keys.json'), '--json'], proj);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(json<PullDoc>(ok).signers, ['alice']);
    // A signature by a key the keys file does not trust does not count.
    const unsigned = `oci://${registry.host}/skills/other:1`;
    cli(['push', join(process.cwd(), BUNDLE), unsigned, '--sign', join(work, 'mallory.key'), '--signer', 'alice']);
    const proj2 = join(work, 'proj-unsigned');
    await mkdir(proj2);
    const refused = cli(['pull', unsigned, '--min-signers', '1', '--keys', join(work, 'keys.json'), '--json'], proj2);
    assert.equal(refused.code, 1, refused.stdout);
    assert.deepEqual(
      json<{ diagnostics: { code: string }[] }>(refused).diagnostics.map((d) => d.code),
      ['OCI_SIGNERS_TOO_FEW'],
    );
    assert.deepEqual(await readdir(proj2), []);
    const two = cli(['pull', ref, '--min-signers', '2', '--keys', join(work, 'keys.json'), '--out', 'x', '--json'], proj2);
    assert.equal(two.code, 1);
  });

  it('skopeo inspects and copies what push wrote; pull reads what skopeo pushed', { skip: !hasSkopeo() && 'skopeo is not installed' }, async () => {
    const ref = `${registry.host}/skills/interop:1`;
    const pushed = json<PushDoc>(cli(['push', PDF_NOTES_DIR, `oci://${ref}`, '--json']));
    const raw = spawnSync('skopeo', ['inspect', '--raw', '--tls-verify=false', `docker://${ref}`], { encoding: 'utf8' });
    assert.equal(raw.status, 0, raw.stderr);
    assert.equal(sha256(raw.stdout), pushed.digest);
    assert.equal(JSON.parse(raw.stdout).artifactType, 'application/vnd.cncf.skill.manifest.v1+json');
    // Through an OCI layout on disk and back into another repository, by skopeo alone.
    const layout = join(work, 'layout');
    const out = spawnSync('skopeo', ['copy', '--src-tls-verify=false', `docker://${ref}`, `oci:${layout}:interop`], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    const back = spawnSync('skopeo', ['copy', '--dest-tls-verify=false', `oci:${layout}:interop`, `docker://${registry.host}/copied/interop:1`], { encoding: 'utf8' });
    assert.equal(back.status, 0, back.stderr);
    const proj = join(work, 'proj-interop');
    await mkdir(proj);
    const r = cli(['pull', `oci://${registry.host}/copied/interop:1`, '--json'], proj);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(json<PullDoc>(r).digest, pushed.digest);
    assert.deepEqual(await readFile(join(proj, '.agents', 'skills', 'pdf-notes', 'SKILL.md')), await readFile(join(PDF_NOTES_DIR, 'SKILL.md')));
  });

  it('refuses a reference that is not oci://HOST/REPO[:TAG]', () => {
    for (const bad of ['oci://localhost:5000', 'oci://localhost:5000/Upper/case', `oci://${registry.host}/x@sha256:abc`]) {
      const r = cli(['pull', bad, '--json']);
      assert.equal(r.code, 2, bad);
      assert.equal(json<{ error: { code: string } }>(r).error.code, 'OCI_REFERENCE_INVALID', bad);
    }
    const r = cli(['pull', 'https://example.com/x', '--json']);
    assert.equal(r.code, 2);
    assert.equal(json<{ error: { code: string } }>(r).error.code, 'USAGE');
  });
});

