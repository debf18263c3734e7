// createSkill: init's scaffold written all or nothing, then checked as validate checks it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSkillctlError } from '../../../src/core/errors.js';
import { createSkill, type ScaffoldSpec } from '../../../src/core/scaffold/index.js';
import { tempDir } from '../../helpers/tmp.js';

const SPEC: ScaffoldSpec = { format: 'manifest', id: 'acme.tidy', description: 'Tidy text.', runtime: 'python', runtimeVersion: '3.12.4', dirName: 'tidy' };

describe('createSkill', () => {
  it('creates a new folder whole, with the scaffold files, and it validates', async () => {
    const target = join(tempDir(), 'tidy');
    const r = await createSkill({ target, label: 'tidy', spec: SPEC, force: false });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.value?.files, ['scripts/main.py', 'skill.yaml']);
    assert.deepEqual(readdirSync(target).sort(), ['scripts', 'skill.yaml']);
    assert.deepEqual(readdirSync(join(target, '..')), ['tidy'], 'no temporary folder left beside it');
  });

  it('refuses a folder that is not empty (OUTPUT_EXISTS), and with force writes into it, digests covering its files', async () => {
    const target = join(tempDir(), 'tidy');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'mine\n');
    await assert.rejects(createSkill({ target, label: 'tidy', spec: SPEC, force: false }), (err: unknown) => isSkillctlError(err) && err.code === 'OUTPUT_EXISTS');
    assert.equal(existsSync(join(target, 'skill.yaml')), false);
    const r = await createSkill({ target, label: 'tidy', spec: SPEC, force: true });
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.ok(existsSync(join(target, 'notes.txt')));
  });

  it('writes nothing when the scaffold itself has findings', async () => {
    const target = join(tempDir(), 'other-name');
    const r = await createSkill({ target, label: 'other-name', spec: { format: 'skill-md', id: 'tidy', description: 'Tidy.', runtime: 'none', dirName: 'other-name' }, force: false });
    assert.equal(r.ok, false);
    assert.ok(r.diagnostics.some((d) => d.severity === 'error'));
    assert.equal(existsSync(target), false);
  });
});
