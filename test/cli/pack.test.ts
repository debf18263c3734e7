// skillctl pack through the binary.
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/core/digest/index.js';
import { json, skillctl } from '../helpers/cli.js';
import { GOLDEN_ARCHIVE_DIGEST } from '../helpers/golden.js';
import { fixture } from '../helpers/paths.js';
import { editManifest } from '../helpers/project.js';
import { packBundle } from '../../src/core/pack/index.js';
import { removeDir, tempDir } from '../helpers/project.js';

interface PackDoc {
  ok: boolean;
  archive: string | null;
  digest: string | null;
  size: number | null;
  files: { path: string; size: number; mode: string; digest: string }[];
  diagnostics: { code: string }[];
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
    // The binary compresses in a worker thread; the bytes are the in-thread compressor's.
    assert.equal(a.digest, GOLDEN_ARCHIVE_DIGEST);
    assert.equal(a.size, (await readFile(join(dir, 'a', 'golden.demo-0.1.0.tgz'))).length);
    assert.deepEqual(a.files.map((f) => f.path), ['.skillignore', 'docs/README.md', a.files[2]?.path, 'lib/util.py', 'run.sh', 'skill.yaml']);
    assert.ok((await readFile(join(dir, 'b', 'golden.demo-0.1.0.tgz'))).equals(await readFile(join(dir, 'a', 'golden.demo-0.1.0.tgz'))));
  });

  it('compressing in a worker thread gives the bytes of compressing in-process, over many pieces', async () => {
    const big = join(dir, 'big');
    await cp(fixture('pack', 'golden-bundle'), big, { recursive: true });
    // Over a megabyte of mixed text and noise: many 64 KiB pieces, several DEFLATE blocks.
    const noise = Buffer.alloc(600 * 1024);
    for (let i = 0, x = 7; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    await writeFile(join(big, 'lib', 'noise.bin'), noise);
    await writeFile(join(big, 'docs', 'long.md'), 'All work and no play makes a dull skill.\n'.repeat(20_000));
    await editManifest(big, (t) => t);
    const cli = json<PackDoc>(skillctl(['pack', '--json', big, '--out', 'big-cli'], { cwd: dir }));
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
});
