// Threat: a pull that fails removes the folder it made for its destination, and with it what another pull placed there meanwhile.
// `pull oci://…` makes the destination's parent (`--out DIR`, or `.agents/skills` in a new
// project) when it is missing, and a pull that failed removed the folders it made, whole: two
// pulls started together into a new folder (a setup script pulling its skills in parallel), one
// of them from a registry that serves a bad layer, and the failing one removed the skill the
// other had just placed and reported written (until the stop of 2026-11-30). A failed pull now
// removes the folders it made only while they are empty: what another process put there stays.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { json, skillctl, skillctlAsync, type CliRun } from '../helpers/cli.js';
import { hostileRegistry, type HostileRegistry } from '../helpers/hostile-registry.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';
import { skillArtifact } from '../helpers/skill-artifact.js';

type Doc = { ok?: boolean; error?: { code: string }; diagnostics?: { code: string }[] };
const codeOf = (r: CliRun): string | undefined => json<Doc>(r).error?.code ?? json<Doc>(r).diagnostics?.[0]?.code;

describe('two pulls into one new folder, one of them failing', () => {
  let registry: RunningRegistry;
  let hostile: HostileRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let ref: string;
  /** Resolved when the hostile registry is asked for its layer; the answer waits for `release`. */
  let layerAsked: Promise<void>;
  let release: () => void = () => undefined;

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-concurrent-');
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/pdf-notes:1`;
    const pushed = skillctl(['push', PDF_NOTES_DIR, ref, '--json'], { cwd: proj, env, timeoutMs: 120_000 });
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    // Another skill's artifact, served with its layer's last byte changed: its pull fails after
    // it made the destination's folder, once the layer has arrived.
    const { layer, config } = await skillArtifact(join(process.cwd(), 'manifests', 'default', 'fs.read_text'), join(work, 'packed'));
    let asked = (): void => undefined;
    layerAsked = new Promise((resolve) => (asked = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const layerDigest = sha256(layer);
    hostile = await hostileRegistry({
      misbehaviour: 'wrong-layer-digest',
      layer,
      config,
      hold: (seen) => {
        if (!seen.url.includes(layerDigest)) return undefined;
        asked();
        return held;
      },
    });
  });
  after(async () => {
    release();
    await hostile.close();
    await registry.stop();
    await removeDir(work);
  });

  it('the failed pull leaves the skill the other placed meanwhile: OCI_DIGEST_MISMATCH, exit 1, pdf-notes still there', async () => {
    const shared = join(work, 'new', 'skills');
    const failing = skillctlAsync(['pull', `oci://${hostile.host}/skills/read-text:1`, '--out', shared, '--json'], { cwd: proj, env, timeoutMs: 120_000 });
    // The failing pull has made `new/skills` and waits for its layer.
    await layerAsked;
    assert.equal(existsSync(shared), true);
    const honest = skillctl(['pull', ref, '--out', shared, '--json'], { cwd: proj, env, timeoutMs: 120_000 });
    assert.equal(honest.code, 0, honest.stdout + honest.stderr);
    release();
    const failed = await failing;
    assert.deepEqual([failed.code, codeOf(failed)], [1, 'OCI_DIGEST_MISMATCH'], failed.stdout + failed.stderr);
    assert.equal(existsSync(join(shared, 'pdf-notes', 'SKILL.md')), true, 'the skill the other pull placed was removed');
  });
});
