// packFolder: the folder and the output directory checked before anything is made.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { packFolder } from '../../../src/core/pack/index.js';
import { fixture } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

function code(err: unknown): unknown {
  return isSkillctlError(err) ? err.code : err;
}

describe('packFolder', () => {
  it('makes the output directory and writes the archive', async () => {
    const out = join(tempDir(), 'a', 'b');
    const r = await packFolder(fixture('pack', 'golden-bundle'), out, { label: 'golden-bundle' });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.equal(readdirSync(out).length, 1);
  });

  it('refuses an output directory inside the folder, on its real path, before making it', async () => {
    const dir = join(tempDir(), 'bundle');
    cpSync(fixture('pack', 'golden-bundle'), dir, { recursive: true });
    await assert.rejects(packFolder(dir, join(dir, 'dist', 'x'), { label: 'bundle', outLabel: 'bundle/dist/x' }), (err: unknown) => code(err) === 'OUTPUT_UNWRITABLE');
    assert.equal(existsSync(join(dir, 'dist')), false);
  });

  it('refuses a folder that does not exist or is a file (BUNDLE_NOT_FOUND)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    for (const p of [join(dir, 'nope'), join(dir, 'file')]) {
      await assert.rejects(packFolder(p, dir), (err: unknown) => code(err) === 'BUNDLE_NOT_FOUND', p);
    }
  });
});
