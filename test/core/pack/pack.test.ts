// pack: the same bundle gives the same bytes on every run, machine and Node version (CI runs this
// file on Node 20 and 24 against one recorded digest), with the headers GNU tar writes for
// `tar --sort=name --format=ustar --owner=0 --group=0 --numeric-owner --mtime=@0`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { archiveSourceFromBytes } from '../../../src/core/bundle/index.js';
import { sha256 } from '../../../src/core/digest/index.js';
import { packBundle } from '../../../src/core/pack/index.js';
import { manifestDigestOf } from '../../../src/core/manifest/index.js';
import { entry, writeBundle } from '../../helpers/bundles.js';
import { GOLDEN_ARCHIVE_DIGEST } from '../../helpers/golden.js';
import { fixture } from '../../helpers/paths.js';
import { removeDir, tempDir } from '../../helpers/project.js';

const GOLDEN_DIGEST = GOLDEN_ARCHIVE_DIGEST;

describe('pack', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('refuses a manifest changed after it was validated, whose content digest cannot show it (CONTENT_DIGEST_MISMATCH, nothing written)', async () => {
    const bundle = join(dir, 'raced');
    await writeBundle(bundle, { entrypoints: [entry()], files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    const manifest = join(bundle, 'skill.json');
    const doc = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    // The digests fixed: a manifest that validates as well, and widens what the skill asks.
    const widened = { ...doc, description: 'Asks for more.', manifest_digest: '' };
    widened.manifest_digest = manifestDigestOf(widened);
    const out = join(dir, 'raced-out');
    let swapped = false;
    const r = await packBundle(bundle, out, {
      // a.txt is written (b.txt already being read), skill.json not read yet: swap it now.
      onProgress: (done) => {
        if (swapped || done === 0) return;
        swapped = true;
        writeFileSync(manifest, JSON.stringify(widened, null, 2) + '\n');
      },
    });
    assert.ok(swapped);
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['CONTENT_DIGEST_MISMATCH']);
    assert.equal(existsSync(out), false);
  });

  it('reports progress after each file, in bytes of content, up to the total (what pack draws on a terminal)', async () => {
    const ticks: [number, number][] = [];
    const out = join(dir, 'progress');
    const r = await packBundle(fixture('pack', 'golden-bundle'), out, { onProgress: (done, total) => ticks.push([done, total]) });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    const total = r.files.reduce((n, f) => n + f.size, 0);
    assert.equal(ticks.length, r.files.length);
    assert.deepEqual(ticks.at(-1), [total, total]);
    assert.ok(ticks.every(([d, t], i) => t === total && (i === 0 || d >= (ticks[i - 1] as [number, number])[0])));
  });

  it(`packs the golden bundle to the recorded digest on Node ${process.version}`, async () => {
    const r = await packBundle(fixture('pack', 'golden-bundle'), dir);
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(r.archive, join(dir, 'golden.demo-0.1.0.tgz'));
    assert.equal(r.digest, GOLDEN_DIGEST);
    assert.equal(sha256(await readFile(r.archive as string)), GOLDEN_DIGEST);
    assert.deepEqual(
      r.files.map((f) => [f.path, f.mode]),
      [
        ['.skillignore', '0644'],
        ['docs/README.md', '0644'],
        ['lib/a-directory-name-that-is-long-enough/to-push-the-whole-path-past/one-hundred-bytes-of-ustar-name/data.txt', '0644'],
        ['lib/util.py', '0644'],
        ['run.sh', '0755'],
        ['skill.yaml', '0644'],
      ],
    );
  });

  it('writes the same bytes from a copy with other mtimes, permissions and owner umask', async () => {
    const copy = join(dir, 'copy');
    await cp(fixture('pack', 'golden-bundle'), copy, { recursive: true, preserveTimestamps: false });
    await chmod(join(copy, 'run.sh'), 0o700);
    await chmod(join(copy, 'lib', 'util.py'), 0o600);
    const out = join(dir, 'copy-out');
    await mkdir(out);
    const r = await packBundle(copy, out);
    assert.equal(r.digest, GOLDEN_DIGEST);
  });

  it('writes headers byte-identical to GNU tar with normalised owner, mtime and mode', { skip: spawnSync('tar', ['--version']).status !== 0 }, async () => {
    const r = await packBundle(fixture('pack', 'golden-bundle'), join(dir));
    const ours = gunzipSync(await readFile(r.archive as string));
    const list = join(dir, 'files.txt');
    await writeFile(list, r.files.map((f) => f.path).join('\n') + '\n');
    const gnu = spawnSync(
      'tar',
      ['--format=ustar', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '--no-recursion', '-C', fixture('pack', 'golden-bundle'), '-cf', '-', '-T', list],
      { maxBuffer: 1 << 24 },
    );
    assert.equal(gnu.status, 0, gnu.stderr.toString());
    assert.ok(ours.equals(gnu.stdout), 'the tar stream differs from GNU tar');
  });

  it('has a fixed gzip header: no name, mtime 0, OS Unix', async () => {
    const r = await packBundle(fixture('pack', 'golden-bundle'), dir);
    const bytes = await readFile(r.archive as string);
    assert.deepEqual([...bytes.subarray(0, 10)], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  });

  it('refuses an invalid manifest, listing the findings, and writes nothing', async () => {
    const bad = join(dir, 'bad');
    await cp(fixture('pack', 'golden-bundle'), bad, { recursive: true });
    await writeFile(join(bad, 'run.sh'), 'changed\n');
    const out = join(dir, 'bad-out');
    await mkdir(out);
    const r = await packBundle(bad, out);
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['CONTENT_DIGEST_MISMATCH']);
    assert.equal(r.archive, undefined);
  });

  it('refuses symbolic links in the bundle', async () => {
    const linked = join(dir, 'linked');
    await cp(fixture('pack', 'golden-bundle'), linked, { recursive: true });
    await symlink('/etc/passwd', join(linked, 'passwd'));
    const r = await packBundle(linked, dir);
    assert.equal(r.ok, false);
    assert.ok(r.diagnostics.some((d) => d.code === 'BUNDLE_SYMLINK'));
  });

  it('leaves out .git/, node_modules/, .skillctl/ and .skillignore matches', async () => {
    const noisy = join(dir, 'noisy');
    await cp(fixture('pack', 'golden-bundle'), noisy, { recursive: true });
    for (const d of ['.git', 'node_modules/x', '.skillctl', 'lib/node_modules']) {
      await mkdir(join(noisy, d), { recursive: true });
      await writeFile(join(noisy, d, 'file'), 'excluded');
    }
    await writeFile(join(noisy, 'more.log'), 'ignored');
    const out = join(dir, 'noisy-out');
    await mkdir(out);
    const r = await packBundle(noisy, out);
    assert.equal(r.digest, GOLDEN_DIGEST);
  });

  it('reads back through the archive source with the same files', async () => {
    const r = await packBundle(fixture('pack', 'golden-bundle'), dir);
    const src = await archiveSourceFromBytes(await readFile(r.archive as string), 'golden.tgz');
    const listing = await src.list();
    assert.deepEqual(listing.diagnostics, []);
    assert.deepEqual(
      listing.files.map((f) => f.path),
      r.files.map((f) => f.path),
    );
  });
});
