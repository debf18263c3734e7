// Threat: a registry answers HEAD of a pinned tag with the pinned digest while GET serves what was pushed over it, so that verify-pins --remote reports no drift though every pull of the tag gets another skill.
// verify-pins --remote asked what a pinned tag resolves to with a HEAD request and took its
// Docker-Content-Digest header as the answer, unchecked; a pull asks with GET and hashes the
// manifest it gets. A registry (or a proxy or cache before it) that keeps answering HEAD with the
// old digest hid a tag pushed over from the CI job meant to catch it (until the stop of
// 2026-12-01). The tag is now resolved as a pull resolves it: the manifest is fetched and hashed,
// so what verify-pins compares is what a pull of the tag would get (OCI_TAG_DRIFT, exit 1).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { json, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { registryProxy, type RegistryProxy } from '../helpers/registry-proxy.js';

const READ_TEXT = join(process.cwd(), 'manifests', 'default', 'fs.read_text');
const READ_TREE = join(process.cwd(), 'manifests', 'default', 'fs.read_tree');

type Doc = { error?: { code: string }; diagnostics?: { code: string; message: string }[]; digest?: string };

describe('a registry that answers HEAD of a pinned tag otherwise than GET', () => {
  let registry: RunningRegistry;
  let proxy: RegistryProxy;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let pinned: string | undefined;
  let lie: string | undefined;
  // Not blocking this process: the proxy answers from its event loop.
  const cli = (args: string[]): Promise<CliRun> => skillctlAsync(args, { cwd: proj, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    proxy = await registryProxy(registry.port, { headDigest: () => lie });
    work = await tempDir('skillctl-oci-head-lies-');
    ({ proj, env } = await ociProject(work));
  });
  after(async () => {
    await proxy.close();
    await registry.stop();
    await removeDir(work);
  });

  it('the tag pushed over, HEAD still answering the pinned digest: verify-pins --remote reports OCI_TAG_DRIFT (exit 1)', async () => {
    const ref = `oci://${proxy.host}/skills/fs.read_text:0.1.0`;
    const pushed = await cli(['push', READ_TEXT, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    pinned = json<Doc>(pushed).digest;
    assert.equal((await cli(['pin', ref])).code, 0);
    assert.equal((await cli(['verify-pins', '--remote', '--private-origins'])).code, 0, 'the honest registry passes');

    const over = await cli(['push', READ_TREE, ref, '--json']);
    assert.equal(over.code, 0, over.stdout + over.stderr);
    const now = json<Doc>(over).digest;
    assert.notEqual(now, pinned);
    lie = pinned;
    // What a pull of the tag gets: the skill pushed over it.
    const pulled = await cli(['pull', ref, '--out', join(work, 'pulled'), '--json']);
    assert.equal(json<Doc>(pulled).digest, now, pulled.stdout + pulled.stderr);

    const r = await cli(['verify-pins', '--remote', '--private-origins', '--json']);
    const doc = json<Doc>(r);
    assert.deepEqual([r.code, (doc.diagnostics ?? []).map((d) => d.code)], [1, ['OCI_TAG_DRIFT']], r.stdout + r.stderr);
    assert.ok(doc.diagnostics?.[0]?.message.includes(`now resolves to ${now}`), doc.diagnostics?.[0]?.message);
  });
});
