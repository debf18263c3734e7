// preparePin of a folder: resolved once inside the project (as verify-pins resolves it), then
// opened there without following a link, so nothing outside the project is validated or hashed.
import assert from 'node:assert/strict';
import { cpSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { preparePin, type PrepareContext } from '../../../src/core/pins/index.js';
import { projects } from '../../helpers/project.js';
import { tempDir } from '../../helpers/tmp.js';
import { errorCodesOf } from '../../helpers/diagnostics.js';

const ctx = (root: string): PrepareContext => ({ root, keys: new Map(), signing: [] });
const codes = errorCodesOf;

describe('preparePin of a folder', () => {
  const { project, cleanup } = projects();
  after(cleanup);

  it('a folder that resolves outside the project through a link: PIN_SOURCE_INVALID, nothing of it read', async () => {
    const root = await project();
    const outside = realpathSync(tempDir('skillctl-pin-outside-'));
    cpSync(join(root, 'manifests', 'hello'), join(outside, 'hello'), { recursive: true });
    symlinkSync(join(outside, 'hello'), join(root, 'manifests', 'elsewhere'));
    const r = await preparePin(ctx(root), { kind: 'bundle', source: 'manifests/elsewhere' });
    assert.equal(r.prepared, undefined);
    assert.deepEqual(codes(r.diagnostics), ['PIN_SOURCE_INVALID']);
    // A link that stays inside the project is the folder it leads to.
    symlinkSync('hello', join(root, 'manifests', 'alias'));
    const alias = await preparePin(ctx(root), { kind: 'bundle', source: 'manifests/alias' });
    assert.deepEqual(codes(alias.diagnostics), []);
    assert.equal(alias.prepared?.kind, 'skill');
  });
});
