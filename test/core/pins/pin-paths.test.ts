// pinPaths: skillctl pin as one request; a target or key that cannot be used stops it before the lock is touched.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_LOCK_PATH, pinPaths, type PinPathsRequest } from '../../../src/core/pins/index.js';
import { makeProject, removeDir } from '../../helpers/project.js';
import { testFileLock } from '../../helpers/pins.js';

async function request(more: Partial<PinPathsRequest> = {}): Promise<PinPathsRequest> {
  const root = await makeProject();
  after(() => removeDir(root));
  const lockPath = join(root, ...DEFAULT_LOCK_PATH.split('/'));
  return { root, cwd: root, paths: [], all: false, lockPath, lockFile: DEFAULT_LOCK_PATH, keys: [], replace: false, trustKeys: false, fileLock: testFileLock(), ...more };
}

describe('pinPaths', () => {
  it('pins the paths named, relative to the working directory', async () => {
    const req = await request({ paths: ['manifests/hello'] });
    const r = await pinPaths(req);
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.changes.map((c) => [c.action, c.source]), [['added', 'manifests/hello']]);
    assert.match(readFileSync(req.lockPath, 'utf8'), /manifests\/hello/);
  });

  it('writes nothing when a path or a key cannot be used', async () => {
    const req = await request({ paths: ['manifests/hello', 'nope'], keys: [{ file: 'missing.key', signer: 'alice' }] });
    const r = await pinPaths(req);
    assert.equal(r.ok, false);
    assert.equal(r.lockWritten, false);
    assert.ok(r.diagnostics.some((d) => d.code === 'INPUT_NOT_FOUND' && d.file === 'nope'));
    assert.ok(r.diagnostics.some((d) => d.file === 'missing.key'));
    assert.equal(existsSync(req.lockPath), false);
  });

  it('reports progress after each target it reads (what pin --all draws on a terminal)', async () => {
    const ticks: [number, number][] = [];
    const req = await request({ all: true, onProgress: (done, total) => ticks.push([done, total]) });
    const r = await pinPaths(req);
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    const n = r.changes.filter((c) => c.action === 'added').length;
    assert.ok(n >= 2, `the fixture project has several targets (${n})`);
    assert.deepEqual(ticks, Array.from({ length: n }, (_, i) => [i + 1, n]));
  });

  it('records an origin on the pin of its source, and refuses (nothing written) a pin that is not what the origin holds', async () => {
    const origin = { oci: { reference: 'oci://localhost:5000/skills/hello:1', digest: `sha256:${'a'.repeat(64)}` as const } };
    const dry = await pinPaths(await request({ paths: ['manifests/hello'] }));
    const pinned = dry.lock?.skills[0];
    assert.ok(pinned !== undefined);
    const holds = { manifest_digest: pinned.manifest_digest, content_digest: pinned.content_digest };
    const same = await request({ paths: ['manifests/hello'], origins: new Map([['manifests/hello', { origin, holds }]]) });
    const ok = await pinPaths(same);
    assert.equal(ok.ok, true, JSON.stringify(ok.diagnostics));
    assert.deepEqual(JSON.parse(readFileSync(same.lockPath, 'utf8')).skills[0].origin, origin);

    const other = await request({ paths: ['manifests/hello'], origins: new Map([['manifests/hello', { origin, holds: { ...holds, content_digest: `sha256:${'b'.repeat(64)}` as const } }]]) });
    const refused = await pinPaths(other);
    assert.deepEqual([refused.ok, refused.lockWritten, refused.diagnostics.map((d) => [d.code, d.file, d.message])], [
      false,
      false,
      [['PIN_ORIGIN_MISMATCH', 'manifests/hello', `manifests/hello holds content ${holds.content_digest}, not the sha256:${'b'.repeat(64)} of ${origin.oci.reference}@${origin.oci.digest} it was pulled from`]],
    ]);
    assert.equal(existsSync(other.lockPath), false);
  });
});
