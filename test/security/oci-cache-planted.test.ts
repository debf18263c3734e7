// Threat: a skill granted the home plants folders or files in the blob cache where skillctl stores blobs, so that every later pull of an artifact ends as a crash.
// The blob cache (`$XDG_CACHE_HOME/skillctl/oci/`) is written with the user's rights, so any
// program of the user's (a skill granted the home) can put things in it. What is read from it
// is hashed again; but a folder put under a blob's name, or a file where the cache's `blobs/sha256`
// folder belongs, made the pull that stores the blob fail its rename or mkdir with EISDIR or
// ENOTDIR, reported as INTERNAL ("a bug in skillctl"), for every pull of that artifact, until the
// stop of 2026-11-30. Both are now OUTPUT_UNWRITABLE (exit 2) naming the path to remove, nothing
// placed; the pull after the user removed it works.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { json, skillctl, type CliRun } from '../helpers/cli.js';
import { ociProject, startRegistry, type RunningRegistry } from '../helpers/oci-registry.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES_DIR } from '../helpers/skill-md.js';

type Doc = { error?: { code: string; message: string } };

describe('things planted in the blob cache where a pull stores blobs', () => {
  let registry: RunningRegistry;
  let work: string;
  let proj: string;
  let env: Record<string, string>;
  let ref: string;
  let blobs: string;
  let names: string[];
  const cli = (args: string[]): CliRun => skillctl(args, { cwd: proj, env, timeoutMs: 120_000 });

  before(async () => {
    registry = await startRegistry();
    work = await tempDir('skillctl-oci-cache-planted-');
    ({ proj, env } = await ociProject(work));
    ref = `oci://${registry.host}/skills/pdf-notes:1`;
    const pushed = cli(['push', PDF_NOTES_DIR, ref, '--json']);
    assert.equal(pushed.code, 0, pushed.stdout + pushed.stderr);
    blobs = join(work, 'cache', 'skillctl', 'oci', 'blobs', 'sha256');
    // One honest pull fills the cache: the manifest, the config and the layer, by their digests.
    assert.equal(cli(['pull', ref, '--out', join(work, 'first'), '--json']).code, 0);
    names = await readdir(blobs);
    assert.equal(names.length, 3);
  });
  beforeEach(async () => {
    await rm(join(work, 'cache'), { recursive: true, force: true });
    await rm(join(work, 'out'), { recursive: true, force: true });
  });
  after(async () => {
    await registry.stop();
    await removeDir(work);
  });

  const refused = (r: CliRun, path: string): void => {
    const doc = json<Doc>(r);
    assert.deepEqual([r.code, doc.error?.code], [2, 'OUTPUT_UNWRITABLE'], r.stdout + r.stderr);
    assert.match(doc.error?.message ?? '', new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(existsSync(join(work, 'out', 'pdf-notes')), false);
  };

  it('a folder under every blob name: OUTPUT_UNWRITABLE, exit 2, not INTERNAL; a pull after it is removed works', async () => {
    for (const n of names) await mkdir(join(blobs, n, 'planted'), { recursive: true });
    refused(cli(['pull', ref, '--out', join(work, 'out'), '--json']), blobs);
    await rm(join(work, 'cache'), { recursive: true });
    assert.equal(cli(['pull', ref, '--out', join(work, 'out'), '--json']).code, 0);
  });

  it('a file where the blobs folder belongs: OUTPUT_UNWRITABLE, exit 2, not INTERNAL', async () => {
    await mkdir(join(blobs, '..'), { recursive: true });
    await writeFile(blobs, 'planted\n');
    refused(cli(['pull', ref, '--out', join(work, 'out'), '--json']), blobs);
  });
});
