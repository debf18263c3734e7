// The preload that keeps a node skill's search for bare module names inside its bundle
// (runtimes/node-module-search.ts), run by this very node: a module in the bundle's own
// node_modules, a built-in and a relative path are found as without it; the same name in a
// node_modules above the bundle is not, for require, and for import where node has
// module.registerHooks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import Module from 'node:module';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { bundleModulesOnly } from '../../../../src/core/run/runtimes/node-module-search.js';
import { tempDir } from '../../../helpers/tmp.js';

const hooks = typeof (Module as { registerHooks?: unknown }).registerHooks === 'function';

/** A module that prints what each name it is given resolves to, or the error's code. */
const PROBE = {
  'probe.cjs': "for (const n of process.argv.slice(2)) { let r; try { r = require(n); r = typeof r === 'string' ? r : 'builtin'; } catch (e) { r = e.code; } console.log(n, r); }\n",
  'probe.mjs': "for (const n of process.argv.slice(2)) { let r; try { r = (await import(n)).default; r = typeof r === 'string' ? r : 'builtin'; } catch (e) { r = e.code; } console.log(n, r); }\n",
};

describe('bundleModulesOnly', () => {
  const root = realpathSync(tempDir('skillctl-node-search-'));
  const bundle = join(root, 'bundle');

  before(async () => {
    const module = async (dir: string, name: string, value: string): Promise<void> => {
      await mkdir(join(dir, 'node_modules', name), { recursive: true });
      await writeFile(join(dir, 'node_modules', name, 'index.js'), `module.exports = ${JSON.stringify(value)};\n`);
    };
    await module(root, 'above', 'planted');
    await module(root, 'both', 'planted');
    await module(bundle, 'own', 'own');
    await module(bundle, 'both', 'own');
    await mkdir(join(bundle, 'lib'));
    await writeFile(join(bundle, 'lib', 'rel.js'), "module.exports = 'relative';\n");
    for (const [name, text] of Object.entries(PROBE)) await writeFile(join(bundle, name), text);
  });

  const probe = (file: string, flagged: boolean): string[] =>
    execFileSync(process.execPath, [...(flagged ? [bundleModulesOnly(bundle)] : []), join(bundle, file), 'above', 'own', 'both', 'node:fs', 'fs', './lib/rel.js'], { cwd: bundle, encoding: 'utf8' }).trim().split('\n');

  it('without it, require finds a module in a node_modules above the bundle (what it guards against)', () => {
    assert.equal(probe('probe.cjs', false)[0], 'above planted');
  });

  it('require: the bundle\'s own modules, built-ins and relative paths as before; nothing above the bundle', () => {
    assert.deepEqual(probe('probe.cjs', true), ['above MODULE_NOT_FOUND', 'own own', 'both own', 'node:fs builtin', 'fs builtin', './lib/rel.js relative']);
  });

  it(`import: the same${hooks ? '' : ' (skipped: this node has no module.registerHooks, and its import searches above the bundle)'}`, { skip: !hooks }, () => {
    assert.deepEqual(probe('probe.mjs', true), ['above ERR_MODULE_NOT_FOUND', 'own own', 'both own', 'node:fs builtin', 'fs builtin', './lib/rel.js relative']);
  });
});
