// Threat: a module planted in a node_modules above a node skill's bundle, which its bare `require('x')` loads.
// Node looks for a module named bare in the node_modules of the script's folder and of every
// folder above it. With `--sandbox none` those are real folders (the run's copy lies in
// $TMPDIR/skillctl-<uid>/…), and a read grant of /tmp let node's permission model load a
// /tmp/node_modules/x that another user of the host, or a skill of an earlier run granted to
// write /tmp, put there (until the stop of 2026-12-02). Under bubblewrap the bundle is /skill,
// with nothing above it. Here the scratch folder stands for /tmp: the run's TMPDIR is in it, the
// planted module beside it, and the policy grants it to read.
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe } from 'node:test';
import { attackRows, runTarget, scratch, type Attack } from '../helpers/attack.js';
import { entry, writeBundle } from '../helpers/bundles.js';

const NODE_VERSION = process.versions.node;
/** `import` is held to the bundle only where node has synchronous module hooks (22.15, 23.5 and later). */
const importHeld = typeof (Module as { registerHooks?: unknown }).registerHooks === 'function';

const nodeEntry = (command: string, root: string) =>
  entry({
    runtime: 'node',
    runtime_version: NODE_VERSION,
    command,
    output_schema: { type: 'object', properties: { ok: { type: 'string' } } },
    requested_permissions: { 'fs.read': [root] },
  });

/** Prints what the module its argument names exports, or that there is none (with the error's code). */
const REQUIRE = `let r; try { r = require(process.argv[2]); } catch (e) { r = 'missing ' + e.code; } process.stdout.write(JSON.stringify({ ok: r }) + '\\n');\n`;
const IMPORT = `let r; try { r = (await import(process.argv[2])).default; } catch (e) { r = 'missing ' + e.code; } process.stdout.write(JSON.stringify({ ok: r }) + '\\n');\n`;

describe('threat: a module planted in a node_modules above a node skill', () => {
  const sc = scratch('skillctl-node-module-search-');
  const tmp = join(sc.root, 'tmp');
  const policy = join(sc.root, 'policy.yaml');
  const cjs = join(sc.work, 'cjs');
  const esm = join(sc.work, 'esm');

  before(async () => {
    await mkdir(tmp);
    const planted = join(sc.root, 'node_modules', 'planted');
    await mkdir(planted, { recursive: true });
    await writeFile(join(planted, 'package.json'), JSON.stringify({ name: 'planted', main: 'index.js' }));
    await writeFile(join(planted, 'index.js'), "module.exports = 'planted';\n");
    await writeFile(policy, ['version: 1', 'permissions:', `  fs.read: [${JSON.stringify(sc.root)}]`, ''].join('\n'));
    await writeBundle(cjs, { entrypoints: [nodeEntry('node main.js planted', sc.root)], files: { 'main.js': REQUIRE } });
    await writeBundle(esm, { entrypoints: [nodeEntry('node main.mjs planted', sc.root)], files: { 'main.mjs': IMPORT } });
  });

  const run = (bundle: string, sandbox: 'bwrap' | 'none') => () => runTarget(bundle, {}, { cwd: sc.work, sandbox, policy, env: { TMPDIR: tmp } });
  const notFound = (code: string) => (r: { output: unknown }) => assert.deepEqual(r.output, { ok: `missing ${code}` });

  const rows: Attack[] = [];
  for (const sandbox of ['bwrap', 'none'] as const) {
    rows.push({
      what: `a node skill (--sandbox ${sandbox}) under a read grant of the folder above it requires 'planted', a module only that folder's node_modules holds: not found`,
      code: null,
      exit: 0,
      attempt: run(cjs, sandbox),
      check: notFound('MODULE_NOT_FOUND'),
    });
  }
  rows.push({
    what: `a node skill (--sandbox bwrap) imports 'planted' from the node_modules above it: not found`,
    code: null,
    exit: 0,
    attempt: run(esm, 'bwrap'),
    check: notFound('ERR_MODULE_NOT_FOUND'),
  });
  // Node 20's import searches above the bundle whatever skillctl preloads: docs/security.md, What remains.
  if (importHeld) {
    rows.push({
      what: `a node skill (--sandbox none) imports 'planted' from the node_modules above it: not found`,
      code: null,
      exit: 0,
      attempt: run(esm, 'none'),
      check: notFound('ERR_MODULE_NOT_FOUND'),
    });
  }
  attackRows(rows, sc);
});
