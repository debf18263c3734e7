// skillctl pack through the binary.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { workerTrace } from '../helpers/worker-trace.js';
import { json, skillctl } from '../helpers/cli.js';
import { GOLDEN_ARCHIVE_DIGEST } from '../helpers/golden.js';
import { fixture } from '../helpers/paths.js';
import { editManifest } from '../helpers/project.js';
import { packBundle } from '../../src/core/pack/index.js';
import { removeDir, tempDir } from '../helpers/project.js';
import { PDF_NOTES, PDF_NOTES_DIR, UNVERSIONED_DIR } from '../helpers/skill-md.js';
import { unzipSync } from 'fflate';

interface PackDoc {
  ok: boolean;
  archive: string | null;
  digest: string | null;
  size: number | null;
  files: { path: string; size: number; mode: string; digest: string }[];
  kind?: string | null;
  skill_file?: { path: string; digest: string; size: number; entries: { path: string }[]; excluded: string[] } | null;
  diagnostics: { code: string; severity?: string; pointer?: string }[];
}

describe('skillctl pack', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('writes <skill_id>-<skill_version>.tgz and prints its digest and size', async () => {
    const r = skillctl(['pack', fixture('pack', 'golden-bundle'), '--out', 'dist'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const bytes = await readFile(join(dir, 'dist', 'golden.demo-0.1.0.tgz'));
    assert.ok(r.stdout.includes(sha256(bytes)));
    assert.ok(r.stdout.includes(`${bytes.length} bytes`));
  });

  it('--json gives the digest, the size and the per-file list; two runs give the same bytes', async () => {
    const a = json<PackDoc>(skillctl(['pack', '--json', fixture('pack', 'golden-bundle'), '--out', 'a'], { cwd: dir }));
    const b = json<PackDoc>(skillctl(['pack', '--json', fixture('pack', 'golden-bundle'), '--out', 'b'], { cwd: dir }));
    assert.equal(a.ok, true);
    assert.equal(a.archive, 'a/golden.demo-0.1.0.tgz');
    assert.equal(a.digest, b.digest);
    assert.equal(a.digest, GOLDEN_ARCHIVE_DIGEST);
    assert.equal(a.size, (await readFile(join(dir, 'a', 'golden.demo-0.1.0.tgz'))).length);
    assert.deepEqual(a.files.map((f) => f.path), ['.skillignore', 'docs/README.md', a.files[2]?.path, 'lib/util.py', 'run.sh', 'skill.yaml']);
    assert.ok((await readFile(join(dir, 'b', 'golden.demo-0.1.0.tgz'))).equals(await readFile(join(dir, 'a', 'golden.demo-0.1.0.tgz'))));
  });

  it('the binary gives the bytes of the library over many pieces, compressing in its own thread', async () => {
    const big = join(dir, 'big');
    await cp(fixture('pack', 'golden-bundle'), big, { recursive: true });
    // Over a megabyte of mixed text and noise: many 64 KiB pieces, several DEFLATE blocks.
    const noise = Buffer.alloc(600 * 1024);
    for (let i = 0, x = 7; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    await writeFile(join(big, 'lib', 'noise.bin'), noise);
    await writeFile(join(big, 'docs', 'long.md'), 'All work and no play makes a dull skill.\n'.repeat(20_000));
    await editManifest(big, (t) => t);
    const threads = workerTrace(dir);
    const cli = json<PackDoc>(skillctl(['pack', '--json', big, '--out', 'big-cli'], { cwd: dir, env: threads.env }));
    assert.equal(threads.started(), 0, 'no worker thread: DEFLATE is nearly all the work');
    const lib = await packBundle(big, dir);
    assert.equal(cli.ok, true);
    assert.equal(cli.digest, lib.digest);
  });

  it('refuses an invalid bundle with exit 1 and its findings; a missing directory exits 2', async () => {
    const bad = join(dir, 'bad');
    await cp(fixture('pack', 'golden-bundle'), bad, { recursive: true });
    await writeFile(join(bad, 'lib', 'util.py'), 'changed\n');
    const r = skillctl(['pack', '--json', bad, '--out', 'never'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.deepEqual(json<PackDoc>(r).diagnostics.map((d) => d.code), ['CONTENT_DIGEST_MISMATCH']);
    assert.equal(skillctl(['pack', join(dir, 'absent')], { cwd: dir }).code, 2);
  });

  it('refuses to write the archive into the bundle it packs, or where no directory can be: OUTPUT_UNWRITABLE, exit 2', async () => {
    const own = join(dir, 'own');
    await cp(fixture('pack', 'golden-bundle'), own, { recursive: true });
    const inside = skillctl(['pack', '--json', own, '--out', join(own, 'dist')], { cwd: dir });
    assert.equal(inside.code, 2);
    assert.equal(json<{ error: { code: string } }>(inside).error.code, 'OUTPUT_UNWRITABLE');
    // The default output directory is the working directory: packing "." from inside the bundle is the same mistake.
    assert.equal(json<{ error: { code: string } }>(skillctl(['pack', '--json', '.'], { cwd: own })).error.code, 'OUTPUT_UNWRITABLE');
    assert.deepEqual((await readdir(own)).sort(), ['.skillignore', 'build.log', 'docs', 'lib', 'run.sh', 'skill.yaml'].sort(), 'nothing written into the bundle');
    await writeFile(join(dir, 'a-file'), 'x');
    const file = skillctl(['pack', '--json', own, '--out', 'a-file'], { cwd: dir });
    assert.equal(file.code, 2);
    assert.equal(json<{ error: { code: string } }>(file).error.code, 'OUTPUT_UNWRITABLE');
  });
});

describe('skillctl pack of a SKILL.md folder', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('writes <name>-<metadata.version>.tgz, byte-identical across runs', async () => {
    const a = skillctl(['pack', '--json', PDF_NOTES_DIR, '--out', 'a'], { cwd: dir });
    const b = skillctl(['pack', PDF_NOTES_DIR, '--out', 'b'], { cwd: dir });
    assert.equal(a.code, 0, a.stdout + a.stderr);
    assert.equal(b.code, 0, b.stdout + b.stderr);
    const doc = json<PackDoc>(a);
    assert.equal(doc.kind, 'agent-skill');
    assert.equal(doc.archive, 'a/pdf-notes-1.2.0.tgz');
    assert.equal(doc.digest, PDF_NOTES.tgz_digest);
    assert.equal(doc.skill_file, null);
    assert.ok(b.stdout.includes(PDF_NOTES.tgz_digest));
    assert.ok((await readFile(join(dir, 'a', 'pdf-notes-1.2.0.tgz'))).equals(await readFile(join(dir, 'b', 'pdf-notes-1.2.0.tgz'))));
  });

  it('--format skill writes <name>.skill, byte-identical across runs: one top-level folder, the exclusions left out', async () => {
    const a = skillctl(['pack', '--json', '--format', 'skill', PDF_NOTES_DIR, '--out', 'sa'], { cwd: dir });
    const b = skillctl(['pack', '--format', 'skill', PDF_NOTES_DIR, '--out', 'sb'], { cwd: dir });
    assert.equal(a.code, 0, a.stdout + a.stderr);
    assert.equal(b.code, 0, b.stdout + b.stderr);
    const doc = json<PackDoc>(a);
    assert.equal(doc.archive, null);
    assert.equal(doc.skill_file?.path, 'sa/pdf-notes.skill');
    assert.equal(doc.skill_file?.digest, PDF_NOTES.skill_digest);
    assert.deepEqual(doc.skill_file?.excluded, ['evals/cases.json']);
    assert.deepEqual(await readdir(join(dir, 'sa')), ['pdf-notes.skill']);
    const bytes = await readFile(join(dir, 'sa', 'pdf-notes.skill'));
    assert.ok(bytes.equals(await readFile(join(dir, 'sb', 'pdf-notes.skill'))));
    const names = Object.keys(unzipSync(new Uint8Array(bytes)));
    assert.deepEqual([...new Set(names.map((n) => n.split('/')[0]))], ['pdf-notes']);
    assert.deepEqual(names, ['pdf-notes/SKILL.md', 'pdf-notes/references/GUIDE.md', 'pdf-notes/scripts/extract.py']);
    assert.match(b.stdout, /sb\/pdf-notes\.skill .*1 left out/);
  });

  it('--format both writes both archives, with the bytes of each alone', () => {
    const r = skillctl(['pack', '--json', '--format', 'both', PDF_NOTES_DIR, '--out', 'both'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = json<PackDoc>(r);
    assert.equal(doc.digest, PDF_NOTES.tgz_digest);
    assert.equal(doc.skill_file?.digest, PDF_NOTES.skill_digest);
  });

  for (const force of [false, true]) {
    it(`--format both${force ? ' --force' : ''} whose .skill cannot be written: OUTPUT_UNWRITABLE, exit 2, the .tgz already there put back`, async () => {
      const out = join(dir, `kept${force ? '-force' : ''}`);
      const tgz = join(out, 'pdf-notes-1.2.0.tgz');
      // The archive released earlier; with --force, an older build of the version stands there.
      assert.equal(skillctl(['pack', PDF_NOTES_DIR, '--out', out], { cwd: dir }).code, 0);
      if (force) await writeFile(tgz, 'an older build of this version\n');
      const before = await readFile(tgz);
      await mkdir(join(out, 'pdf-notes.skill', 'x'), { recursive: true });
      const r = skillctl(['pack', '--json', '--format', 'both', PDF_NOTES_DIR, '--out', out, ...(force ? ['--force'] : [])], { cwd: dir });
      assert.deepEqual([r.code, json<{ error?: { code: string } }>(r).error?.code], [2, 'OUTPUT_UNWRITABLE'], r.stdout + r.stderr);
      assert.deepEqual(await readFile(tgz), before);
      assert.deepEqual((await readdir(out)).sort(), ['pdf-notes-1.2.0.tgz', 'pdf-notes.skill']);
    });
  }

  it('without metadata.version: exit 1, AGENT_SKILL_VERSION_REQUIRED, nothing written', async () => {
    for (const format of ['tgz', 'both']) {
      const r = skillctl(['pack', '--json', '--format', format, UNVERSIONED_DIR, '--out', `u-${format}`], { cwd: dir });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const doc = json<PackDoc>(r);
      assert.equal(doc.ok, false);
      assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.pointer]), [['AGENT_SKILL_VERSION_REQUIRED', '/metadata']]);
      // Nothing written, and no --out directory made for nothing (issue 20, item 10).
      assert.equal(existsSync(join(dir, `u-${format}`)), false);
    }
    const human = skillctl(['pack', UNVERSIONED_DIR, '--out', 'u-human'], { cwd: dir });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /AGENT_SKILL_VERSION_REQUIRED/);
  });

  it('--strict refuses a client extension field (exit 1); a bad --format is a usage error (exit 2)', async () => {
    const copy = join(dir, 'ext', 'pdf-notes');
    await cp(PDF_NOTES_DIR, copy, { recursive: true });
    const md = join(copy, 'SKILL.md');
    await writeFile(md, (await readFile(md, 'utf8')).replace('metadata:', 'model: sonnet\nmetadata:'));
    assert.equal(skillctl(['pack', '--format', 'skill', copy, '--out', 'ext-ok'], { cwd: dir }).code, 0);
    const strict = skillctl(['pack', '--json', '--format', 'skill', '--strict', copy, '--out', 'ext-strict'], { cwd: dir });
    assert.equal(strict.code, 1);
    assert.deepEqual(json<PackDoc>(strict).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code), ['AGENT_SKILL_EXTENSION_FIELD']);
    assert.equal(skillctl(['pack', '--format', 'zip', PDF_NOTES_DIR], { cwd: dir }).code, 2);
  });
});
