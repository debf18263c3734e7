import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeDirs } from '../../../src/core/fs/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { skillctl } from '../../helpers/cli.js';

describe('makeDirs', () => {
  const root = tempDir('skillctl-make-dirs-');

  it('makes the missing directories and returns the first one it made, like mkdir -p', async () => {
    const target = join(root, 'a', 'b', 'c');
    assert.equal(await makeDirs(target, 0o700), join(root, 'a'));
    assert.ok(statSync(target).isDirectory());
    assert.equal(statSync(join(root, 'a', 'b')).mode & 0o777, 0o700);
    assert.equal(await makeDirs(target), undefined, 'nothing made when it exists');
  });

  it('refuses a path through a file with ENOTDIR', async () => {
    writeFileSync(join(root, 'file'), 'x');
    await assert.rejects(makeDirs(join(root, 'file', 'sub')), { code: 'ENOTDIR' });
  });

  it('fails at once where the system refuses a directory (procfs), where recursive mkdir never returns', async () => {
    await assert.rejects(makeDirs('/proc/skillctl-no-such/x'));
    assert.equal(existsSync('/proc/skillctl-no-such'), false);
  });

  it('pack --out under /proc is an error with exit 2, not a hang', () => {
    const r = skillctl(['pack', 'manifests/examples/text.stats', '--out', '/proc/skillctl-out', '--json']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
  });
});
