// Reading archives: safe archives list, digest and extract as their directories do, and extraction
// never writes outside its target. Hostile archives: test/security/archives.test.ts.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { archiveSourceFromBytes, computeContent, dirSource } from '../../../src/core/bundle/index.js';
import { buildArchive } from '../../../src/core/pack/index.js';
import { fixture } from '../../helpers/paths.js';
import { removeDir, tempDir } from '../../helpers/project.js';
import { paxData, tgz } from '../../helpers/tar.js';

describe('archive source: safe archives', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(async () => removeDir(dir));

  it('accepts ./ prefixes, directory entries and a git-archive comment header', async () => {
    const src = await archiveSourceFromBytes(
      tgz([
        { name: 'pax_global_header', type: 'g', data: paxData({ comment: '0123456789abcdef0123456789abcdef01234567' }) },
        { name: './', type: '5', mode: 0o755 },
        { name: './lib/', type: '5', mode: 0o755 },
        { name: './lib/run.sh', data: '#!/bin/sh\n', mode: 0o755 },
        { name: './skill.yaml', data: 'x: 1\n' },
      ]),
      'ok.tgz',
    );
    const listing = await src.list();
    assert.deepEqual(listing.diagnostics, []);
    assert.deepEqual(listing.files, [
      { path: 'lib/run.sh', size: 10, mode: '0755' },
      { path: 'skill.yaml', size: 5, mode: '0644' },
    ]);
  });

  it('lists the same files and content digest as the directory it was packed from', async () => {
    const bundle = fixture('pack', 'golden-bundle');
    const dirSrc = dirSource(bundle);
    const { bytes } = await buildArchive((await dirSrc.list()).files, (p) => dirSrc.read(p));
    const archive = await archiveSourceFromBytes(bytes, 'golden.tgz');
    assert.deepEqual((await archive.list()).files, (await dirSrc.list()).files);
    assert.equal((await computeContent(archive)).digest, (await computeContent(dirSrc)).digest);
  });

  it('applies .skillignore and the excluded directories as a directory does', async () => {
    const src = await archiveSourceFromBytes(
      tgz([
        { name: '.skillignore', data: '*.log\ncache/\n' },
        { name: 'skill.yaml', data: 'x: 1\n' },
        { name: 'debug.log', data: 'x' },
        { name: 'cache/a.bin', data: 'x' },
        { name: '.git/config', data: 'x' },
        { name: 'sub/node_modules/m/index.js', data: 'x' },
        { name: 'sub/.skillctl/state', data: 'x' },
        // A file named .git is a worktree's link to its repository: VCS data, left out as a directory is.
        { name: 'sub/.git', data: 'gitdir: /home/someone/src/repo/.git/worktrees/sub\n' },
        { name: 'sub/kept.md', data: 'x' },
      ]),
      'ignore.tgz',
    );
    assert.deepEqual(
      (await src.list()).files.map((f) => f.path),
      ['.skillignore', 'skill.yaml', 'sub/kept.md'],
    );
  });

  it('extracts only inside the target, with modes, and refuses a non-empty target', async () => {
    const bytes = tgz([
      { name: 'skill.yaml', data: 'x: 1\n' },
      { name: 'bin/run.sh', data: '#!/bin/sh\n', mode: 0o4755 },
    ]);
    const src = await archiveSourceFromBytes(bytes, 'x.tgz');
    const target = join(dir, 'out');
    assert.deepEqual(await src.extractTo(target), []);
    assert.deepEqual((await readdir(target)).sort(), ['bin', 'skill.yaml']);
    assert.equal((await readFile(join(target, 'bin', 'run.sh'), 'utf8')), '#!/bin/sh\n');
    // setuid is never extracted: modes are 0644 or 0755 only.
    assert.equal((await stat(join(target, 'bin', 'run.sh'))).mode & 0o7777, 0o755);
    assert.equal((await stat(join(target, 'skill.yaml'))).mode & 0o7777, 0o644);
    const again = await src.extractTo(target);
    assert.deepEqual(again.map((d) => d.code), ['ARCHIVE_TARGET_INVALID']);
    const empty = join(dir, 'empty');
    await mkdir(empty);
    assert.deepEqual(await src.extractTo(empty), []);
  });

  it('a path within the archive bound that is too long under the target is a finding, not an internal error', async () => {
    // 4,040 bytes: within the 4096 an archive path may have, past PATH_MAX under any target of 56 bytes or more.
    const long = `${`${'a'.repeat(255)}/`.repeat(15)}${'f'.repeat(200)}`;
    const src = await archiveSourceFromBytes(tgz([{ name: 'skill.yaml', data: 'x: 1\n' }, { name: 'PaxHeaders/f', type: 'x', data: paxData({ path: long }) }, { name: 'f', data: 'x' }]), 'x.tgz');
    assert.deepEqual((await src.list()).diagnostics, []);
    const target = join(dir, 'b'.repeat(60));
    const found = await src.extractTo(target);
    assert.deepEqual(
      found.map((d) => [d.code, d.file, d.message, d.hint]),
      [['ARCHIVE_TARGET_INVALID', long, `the file cannot be written in ${target}: ENAMETOOLONG`, "the target's path and the archive's together are longer than the system allows: unpack into a shorter path"]],
    );
  });

  it('reads files and digests from memory; a path outside the listing is not found', async () => {
    const src = await archiveSourceFromBytes(tgz([{ name: 'skill.yaml', data: 'x: 1\n' }]), 'x.tgz');
    assert.equal((await src.read('skill.yaml')).toString(), 'x: 1\n');
    assert.match(await src.digest('skill.yaml'), /^sha256:[0-9a-f]{64}$/);
    await assert.rejects(src.read('../skill.yaml'), { code: 'INPUT_NOT_FOUND' });
  });
});
