// createFileAtomic never touches an existing file; whether that is a finding is the caller's to say.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { createFileAtomic, createFileOrRefuse } from '../../../src/core/fs/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('createFileAtomic', () => {
  it('creates a new file, and resolves false leaving an existing one as it was', async () => {
    const dir = tempDir();
    const path = join(dir, 'a.txt');
    assert.equal(await createFileAtomic(path, 'one'), true);
    assert.equal(await createFileAtomic(path, 'two'), false);
    assert.equal(readFileSync(path, 'utf8'), 'one');
  });

  it('createFileOrRefuse: OUTPUT_EXISTS for a command that cannot go on', async () => {
    const path = join(tempDir(), 'b.txt');
    writeFileSync(path, 'mine');
    await assert.rejects(createFileOrRefuse(path, 'x'), (err: unknown) => isSkillctlError(err) && err.code === 'OUTPUT_EXISTS');
    assert.equal(readFileSync(path, 'utf8'), 'mine');
  });
});
