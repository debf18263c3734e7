// Threat: a registry's config blob names paths (a skill's id or version that climbs out of the scratch directory run writes in and removes).
// `run oci://…@sha256:…` once wrote its scratch archive to `<scratch>/<id>-<version>.tgz` and
// removed that path's directory at exit, so a config version `1/../../…/victim/x` made a run write
// outside its scratch directory and `rm -rf` the victim's (the home, /tmp). Against the real CNCF
// distribution registry: a skill pushed by skillctl and re-published with such a config (or with
// a version its layer does not hold) is refused by pull with OCI_MANIFEST_INVALID, exit 1, writing
// nothing; the same config planted in the cache by hand (as a skill granted the home could) is
// refused by run, exit 1, which makes and removes nothing outside its temporary directory.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { BlobCache } from '../../src/core/oci/index.js';
import { codesOf, json, skillctl, type CliRun } from '../helpers/cli.js';
import { putBlob } from '../helpers/oci-cache.js';
import { startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, snapshot, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { leftIn } from '../helpers/tmp.js';

const MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

/**
 * Re-publishes `repo:tag` with its config edited by `edit`, through the registry's HTTP API as any
 * publisher can; returns the new manifest's digest and the blobs a cache of it holds.
 */
async function republish(host: string, repo: string, tag: string, edit: (config: Record<string, unknown>) => void): Promise<{ digest: string; blobs: Buffer[] }> {
  const base = `http://${host}/v2/${repo}`;
  const manifest = (await (await fetch(`${base}/manifests/${tag}`, { headers: { accept: MANIFEST } })).json()) as { config: { digest: string; size: number }; layers: { digest: string }[] };
  const config = (await (await fetch(`${base}/blobs/${manifest.config.digest}`)).json()) as Record<string, unknown>;
  const layer = Buffer.from(await (await fetch(`${base}/blobs/${manifest.layers[0]?.digest ?? ''}`)).arrayBuffer());
  edit(config);
  const configBytes = Buffer.from(JSON.stringify(config));
  const started = await fetch(`${base}/blobs/uploads/`, { method: 'POST' });
  const location = new URL(started.headers.get('location') ?? '', `http://${host}`);
  location.searchParams.set('digest', sha256(configBytes));
  assert.equal((await fetch(location, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: configBytes })).status, 201);
  manifest.config = { ...manifest.config, digest: sha256(configBytes), size: configBytes.length };
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  assert.equal((await fetch(`${base}/manifests/${tag}`, { method: 'PUT', headers: { 'content-type': MANIFEST }, body: manifestBytes })).status, 201);
  return { digest: sha256(manifestBytes), blobs: [manifestBytes, configBytes, layer] };
}

describe('a config blob whose id or version would name a path', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: Record<string, string>;
  let n = 0;
  const cli = (args: string[], cwd: string, extra: Record<string, string> = {}): CliRun => skillctl(args, { cwd, env: { ...env, ...extra }, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-config-paths-');
    await mkdir(join(work, 'docker'));
    env = { DOCKER_CONFIG: join(work, 'docker') };
    const pushed = cli(['push', PDF_NOTES_DIR, `oci://${registry.host}/skills/pdf-notes:1`, '--json'], work, { XDG_CACHE_HOME: join(work, 'push-cache') });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  /** A fresh project, cache, temporary directory and victim directory (a file in it, and one in a folder). */
  async function scene(): Promise<{ proj: string; cache: string; tmp: string; victim: string }> {
    const root = join(work, `scene-${n++}`);
    const s = { proj: join(root, 'proj'), cache: join(root, 'cache'), tmp: join(root, 'tmp'), victim: join(root, 'victim') };
    for (const d of [s.proj, s.tmp, join(s.victim, 'precious')]) await mkdir(d, { recursive: true });
    await writeFile(join(s.victim, 'notes.txt'), 'keep\n');
    await writeFile(join(s.victim, 'precious', 'data.txt'), 'important\n');
    return s;
  }

  /** `1/../../…/<victim>/x`: joined to any scratch directory, `<id>-<version>.tgz` is `<victim>/x.tgz`. */
  const climbing = (victim: string): string => `1/${'../'.repeat(16)}${victim.slice(1)}/x`;

  const cases: [string, (victim: string) => Record<string, string>][] = [
    ['a version that climbs out of the scratch directory', (victim) => ({ version: climbing(victim) })],
    ['an id that climbs out of the scratch directory', (victim) => ({ id: `../../${'../'.repeat(16)}${victim.slice(1)}/x` })],
    ['a version that is a semantic version, but not the one the layer holds', () => ({ version: '9.9.9' })],
  ];
  for (const [what, fields] of cases) {
    it(`${what}: pull by tag and by digest refuse it with OCI_MANIFEST_INVALID, exit 1, writing nothing`, async () => {
      const s = await scene();
      const victimBefore = await snapshot(s.victim);
      const tag = `evil-${n}`;
      assert.equal(cli(['push', PDF_NOTES_DIR, `oci://${registry.host}/skills/pdf-notes:${tag}`], work, { XDG_CACHE_HOME: join(work, 'push-cache') }).code, 0);
      const { digest } = await republish(registry.host, 'skills/pdf-notes', tag, (c) => Object.assign(c, fields(s.victim)));
      for (const ref of [`oci://${registry.host}/skills/pdf-notes:${tag}`, `oci://${registry.host}/skills/pdf-notes@${digest}`]) {
        const r = cli(['pull', ref, '--json'], s.proj, { XDG_CACHE_HOME: s.cache, TMPDIR: s.tmp });
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.deepEqual(codesOf(r), ['OCI_MANIFEST_INVALID']);
        assert.deepEqual(await readdir(s.proj), [], 'nothing placed');
      }
      assert.deepEqual(await snapshot(s.victim), victimBefore);
      assert.deepEqual(await leftIn(s.tmp), []);
    });
  }

  it('the climbing config planted in the cache: run refuses it (OCI_MANIFEST_INVALID, exit 1), makes nothing outside its temporary directory and removes nothing', async () => {
    const s = await scene();
    const victimBefore = await snapshot(s.victim);
    const tag = 'planted';
    assert.equal(cli(['push', PDF_NOTES_DIR, `oci://${registry.host}/skills/pdf-notes:${tag}`], work, { XDG_CACHE_HOME: join(work, 'push-cache') }).code, 0);
    const { digest, blobs } = await republish(registry.host, 'skills/pdf-notes', tag, (c) => (c.version = climbing(s.victim)));
    // The cache layout of docs/formats/oci.md, written by hand: each blob under its own digest.
    const cache = new BlobCache(join(s.cache, 'skillctl'));
    for (const bytes of blobs) await putBlob(cache, bytes);
    const cacheBefore = await snapshot(s.cache);
    // run reads the cache only; it never asks the registry.
    const r = cli(['run', `oci://${registry.host}/skills/pdf-notes@${digest}`, '--json'], s.proj, { XDG_CACHE_HOME: s.cache, TMPDIR: s.tmp });
    // What the run did to the victim first (once: removed whole, at the process's exit), then how it ended.
    assert.equal(existsSync(join(s.victim, 'precious', 'data.txt')), true, 'the victim directory is still there');
    assert.deepEqual(await snapshot(s.victim), victimBefore, 'the victim directory is as it was');
    assert.deepEqual(await leftIn(s.tmp), [], 'no scratch directory left');
    assert.deepEqual(await snapshot(s.cache), cacheBefore, 'the planted cache is only read');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(codesOf(r), ['OCI_MANIFEST_INVALID']);
  });

  it('an honest skill run from the cache: its scratch directory, and nothing else of the temporary directory, is removed at exit', async () => {
    const s = await scene();
    await mkdir(join(s.tmp, 'keep'));
    await writeFile(join(s.tmp, 'keep', 'file'), 'keep\n');
    const pulled = cli(['pull', `oci://${registry.host}/skills/pdf-notes:1`, '--json'], s.proj, { XDG_CACHE_HOME: s.cache });
    assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
    const r = cli(['run', `oci://${registry.host}/skills/pdf-notes@${json<{ digest: string }>(pulled).digest}`, '--json'], s.proj, { XDG_CACHE_HOME: s.cache, TMPDIR: s.tmp });
    // A SKILL.md folder has no entrypoint to run: refused as a bundle, after its archive was read.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual([json<{ status: string }>(r).status, json<{ exit_code: number }>(r).exit_code], ['bundle_invalid', 1]);
    assert.deepEqual(await leftIn(s.tmp), ['keep']);
    assert.equal(await readFile(join(s.tmp, 'keep', 'file'), 'utf8'), 'keep\n');
  });
});
