// How push sends a layer to the real CNCF distribution registry (docker-registry): in one PATCH
// whose body streams from the archive (sent while the archive is checked), committed by a PUT with
// no body once the check passed, or in chunks where a proxy before the registry refuses so large
// a request (nginx's 413) or where --chunk-mib asks for chunks. A recording proxy shows
// which requests went; a pull reads the layer back byte for byte each time.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { json, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { registryProxy, type ProxySeen } from '../helpers/registry-proxy.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { tgz } from '../helpers/tar.js';

interface PushDoc {
  digest: string;
  layer: { digest: string; size: number };
  uploaded: { config: boolean; layer: boolean };
}

const MIB = 1024 * 1024;
/** The config's upload: one small PUT (the layer's are megabytes, or empty after chunks). */
const CONFIG_PUT = /^PUT [1-9][0-9]{0,3} 201$/;

describe('push uploads a layer in one streamed request, or in chunks', () => {
  let registry: RunningRegistry;
  let work: string;
  let env: Record<string, string>;
  let skill: string;
  let assets: Buffer;
  const cli = (args: string[], cwd = work): Promise<CliRun> => skillctlAsync(args, { cwd, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-upload-');
    await mkdir(join(work, 'docker'));
    env = { XDG_CACHE_HOME: join(work, 'cache'), DOCKER_CONFIG: join(work, 'docker') };
    // 12 MiB that do not compress: the layer is larger than one 8 MiB chunk.
    skill = join(work, 'src', 'pdf-notes');
    await cp(PDF_NOTES_DIR, skill, { recursive: true });
    assets = randomBytes(12 * MIB);
    await writeFile(join(skill, 'assets.bin'), assets);
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  /** The layer's uploads the proxy saw: PUTs and PATCHes to the upload URLs. */
  const uploads = (seen: readonly ProxySeen[]): string[] => seen.filter((s) => s.url.includes('/blobs/uploads/') && s.method !== 'POST').map((s) => `${s.method} ${s.contentLength ?? '-'} ${s.status}`);

  async function pushThenPull(repo: string, proxyOpts: { maxBodyBytes?: number }, extra: string[] = []): Promise<{ doc: PushDoc; seen: ProxySeen[] }> {
    const proxy = await registryProxy(registry.port, proxyOpts);
    try {
      const r = await cli(['push', skill, `oci://${proxy.host}/${repo}:1`, '--json', ...extra]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const doc = json<PushDoc>(r);
      assert.deepEqual(doc.uploaded, { config: true, layer: true });
      const proj = join(work, `proj-${repo.replace(/\W/g, '-')}`);
      await mkdir(proj);
      const pulled = await cli(['pull', `oci://${registry.host}/${repo}:1`, '--out', '.'], proj);
      assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
      assert.equal(sha256(await readFile(join(proj, 'pdf-notes', 'assets.bin'))), sha256(assets));
      return { doc, seen: proxy.seen };
    } finally {
      await proxy.close();
    }
  }

  it('by default the layer goes in one PATCH streamed from the archive, its length announced, then an empty PUT commits it', async () => {
    const { doc, seen } = await pushThenPull('streamed/pdf-notes', {});
    // The layer's PATCH carries the whole archive; besides it only the commit and the config's small PUT.
    assert.deepEqual(uploads(seen).filter((u) => !CONFIG_PUT.test(u)), [`PATCH ${doc.layer.size} 202`, 'PUT 0 201']);
  });

  it('a proxy that refuses bodies over 9 MiB (413): the layer is sent again in 8 MiB chunks, and arrives whole', async () => {
    const { doc, seen } = await pushThenPull('fallback/pdf-notes', { maxBodyBytes: 9 * MIB });
    const layerUploads = uploads(seen).filter((u) => !CONFIG_PUT.test(u));
    assert.deepEqual(layerUploads, [`PATCH ${doc.layer.size} 413`, 'DELETE - 204', `PATCH ${8 * MIB} 202`, `PATCH ${doc.layer.size - 8 * MIB} 202`, 'PUT 0 201']);
  });

  it('--chunk-mib asks for chunks: 4 MiB PATCHes, no streamed PATCH', async () => {
    const { doc, seen } = await pushThenPull('chunked/pdf-notes', {}, ['--chunk-mib', '4']);
    const layerUploads = uploads(seen).filter((u) => !CONFIG_PUT.test(u));
    assert.deepEqual(layerUploads, [`PATCH ${4 * MIB} 202`, `PATCH ${4 * MIB} 202`, `PATCH ${4 * MIB} 202`, `PATCH ${doc.layer.size - 12 * MIB} 202`, 'PUT 0 201']);
  });

  it('an archive the check refuses: sent while it was checked, never committed (the session is cancelled, the registry has no such blob)', async () => {
    // 12 MiB of random bytes, so the upload is under way as the walk reaches the ../ entry at the end.
    const bad = tgz([
      { name: 'SKILL.md', data: '---\nname: pdf-notes\ndescription: d\n---\n' },
      { name: 'assets.bin', data: assets },
      { name: '../escape.txt', data: 'x' },
    ]);
    const file = join(work, 'refused.tgz');
    await writeFile(file, bad);
    const proxy = await registryProxy(registry.port);
    try {
      const r = await cli(['push', file, `oci://${proxy.host}/refused/pdf-notes:1`, '--json']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /ARCHIVE_PATH_UNSAFE/);
      // The refusal gives the PATCH up, finished or not, then cancels the session: 204, or 404
      // where the PATCH had moved the session on from the URL the client last had (distribution
      // cancels the upload then too). Never a commit.
      const seen = uploads(proxy.seen);
      assert.ok(seen.every((u) => u.startsWith('PATCH ') || /^DELETE - (204|404)$/.test(u)), seen.join('\n'));
      assert.equal(seen.filter((u) => u.startsWith('DELETE ')).length, 1, seen.join('\n'));
      assert.ok(!existsSync(join(work, 'escape.txt')));
    } finally {
      await proxy.close();
    }
    const head = await fetch(`http://${registry.host}/v2/refused/pdf-notes/blobs/${sha256(bad)}`, { method: 'HEAD' });
    assert.equal(head.status, 404);
  });

  it('a FIFO in the archive\'s place is INPUT_NOT_REGULAR_FILE (exit 2) at once, never waited on, and nothing is sent', async () => {
    const fifo = join(work, 'fifo.tgz');
    execFileSync('mkfifo', [fifo]);
    const proxy = await registryProxy(registry.port);
    try {
      const r = await cli(['push', fifo, `oci://${proxy.host}/fifo/pdf-notes:1`, '--json']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(json<{ error?: { code: string } }>(r).error?.code, 'INPUT_NOT_REGULAR_FILE');
      assert.deepEqual(proxy.seen, []);
    } finally {
      await proxy.close();
    }
  });

  it('a streamed upload that is redirected: OCI_REDIRECT_REFUSED, exit 2, the body is not sent again elsewhere, the session is cancelled', async () => {
    const proxy = await registryProxy(registry.port, { redirectBodiesOver: MIB });
    try {
      const r = await cli(['push', skill, `oci://${proxy.host}/redirected/pdf-notes:1`, '--json']);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const doc = json<{ error?: { code: string; message: string } }>(r);
      assert.equal(doc.error?.code, 'OCI_REDIRECT_REFUSED');
      assert.match(doc.error?.message ?? '', /an upload was redirected/);
      // One PATCH (redirected, not sent again), then the session is cancelled.
      assert.deepEqual(uploads(proxy.seen).map((u) => u.replace(/^PATCH [0-9]+ /, 'PATCH ')), ['PATCH 307', 'DELETE - 204'], uploads(proxy.seen).join('\n'));
    } finally {
      await proxy.close();
    }
  });
});
