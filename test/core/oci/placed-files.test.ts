/**
 * `holdsExactly`: a folder holds the files a pull places only when its complete listing is those
 * files (same bytes, same execute bit) and the folders they need. What a skill run earlier could
 * leave there where the digests do not look (a file a `.skillignore` lists, node_modules/, a link,
 * an empty folder) makes it other content.
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sha256 } from '../../../src/core/digest/index.js';
import { holdsExactly, type PlacedFile } from '../../../src/core/oci/placed-files.js';
import { tempDir } from '../../helpers/tmp.js';

const FILES: Record<string, { text: string; mode: '0644' | '0755' }> = {
  'SKILL.md': { text: '# demo\n', mode: '0644' },
  'scripts/run.sh': { text: 'echo hi\n', mode: '0755' },
  'scripts/lib/util.txt': { text: 'x\n', mode: '0644' },
};
const PLACED: PlacedFile[] = Object.entries(FILES).map(([path, f]) => ({ path, size: Buffer.byteLength(f.text), mode: f.mode, digest: sha256(f.text) }));

/** A folder holding exactly FILES. */
async function folder(): Promise<string> {
  const dir = join(tempDir(), 'skill');
  for (const [path, f] of Object.entries(FILES)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), f.text, { mode: f.mode === '0755' ? 0o755 : 0o644 });
  }
  return dir;
}

describe('holdsExactly', () => {
  it('a folder holding exactly the files', async () => {
    assert.equal(await holdsExactly(await folder(), PLACED), true);
  });

  const changes: [string, (dir: string) => Promise<unknown>][] = [
    ['a file more, that a self-ignoring .skillignore lists', async (dir) => {
      await writeFile(join(dir, '.skillignore'), '.skillignore\nhelper.sh\n');
      await writeFile(join(dir, 'helper.sh'), 'id\n');
    }],
    ['a file under node_modules/', async (dir) => {
      await mkdir(join(dir, 'node_modules', 'x'), { recursive: true });
      await writeFile(join(dir, 'node_modules', 'x', 'index.js'), '');
    }],
    ['an empty folder', (dir) => mkdir(join(dir, 'scripts', 'empty'))],
    ['a link', (dir) => symlink('/etc', join(dir, 'tools'))],
    ['a file swapped for a link to the same bytes', async (dir) => {
      await writeFile(join(dir, '..', 'util.txt'), 'x\n');
      await rm(join(dir, 'scripts', 'lib', 'util.txt'));
      await symlink(join(dir, '..', 'util.txt'), join(dir, 'scripts', 'lib', 'util.txt'));
    }],
    ['a file missing', (dir) => rm(join(dir, 'scripts', 'lib', 'util.txt'))],
    ['a folder missing', (dir) => rm(join(dir, 'scripts', 'lib'), { recursive: true })],
    ['other bytes of the same size', (dir) => writeFile(join(dir, 'SKILL.md'), '# dumo\n')],
    ['the execute bit lost', (dir) => chmod(join(dir, 'scripts', 'run.sh'), 0o644)],
    ['the execute bit gained', (dir) => chmod(join(dir, 'SKILL.md'), 0o744)],
  ];
  for (const [what, change] of changes) {
    it(`not with ${what}`, async () => {
      const dir = await folder();
      await change(dir);
      assert.equal(await holdsExactly(dir, PLACED), false);
    });
  }

  it('with a signatures.json at the top that pin --sign wrote, but not one in a folder below, nor a link of that name', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'signatures.json'), '{"signatures":[]}\n');
    assert.equal(await holdsExactly(dir, PLACED), true);
    await writeFile(join(dir, 'scripts', 'signatures.json'), '{}\n');
    assert.equal(await holdsExactly(dir, PLACED), false);
    const other = await folder();
    await symlink('/etc/passwd', join(other, 'signatures.json'));
    assert.equal(await holdsExactly(other, PLACED), false);
  });

  it('not when the folder itself is a link to one that holds the files, or is missing', async () => {
    const dir = await folder();
    const link = join(dir, '..', 'link');
    await symlink(dir, link);
    assert.equal(await holdsExactly(link, PLACED), false);
    assert.equal(await holdsExactly(join(dir, '..', 'none'), PLACED), false);
  });
});
