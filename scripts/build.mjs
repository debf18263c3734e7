#!/usr/bin/env node
// Build: JSON Schemas -> standalone validators (no schema is compiled at start-up),
// TypeScript -> dist/ (library and tests), and the CLI's CommonJS bundles (fast start; the
// start-up wing, src/entry/, says which bundles and how they load).
// `node scripts/build.mjs [step...]` runs only the named steps.
//
// dist/ is never missing nor half-built: the steps write into a sibling directory (a copy of the
// current dist/ when only some steps run), which then takes dist/'s place by rename. A skillctl
// started meanwhile (`npm test` rebuilding while a hook runs) runs the previous build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotDefaultBundles } from './default-bundles.mjs';
import { generate } from './generate.mjs';
import { generateSkillSchemas } from './skill-schemas.mjs';
import { bundleCli } from '../src/entry/bundle.mjs';
import { checkPacks } from './packs.mjs';
import { warmUp } from '../src/entry/warmups.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const dist = join(root, 'dist');
// Beside dist/, so that paths computed from a module's location (`../..` to the repository) hold
// in both, and so that the final rename stays on one file system. Per process: builds may overlap.
const stage = join(root, `dist.build-${process.pid}`);
const previous = join(root, `dist.old-${process.pid}`);

async function step(name, fn) {
  if (only.length > 0 && !only.includes(name)) return;
  const t0 = performance.now();
  await fn();
  process.stderr.write(`build: ${name} ${Math.round(performance.now() - t0)} ms\n`);
}

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail(r.status ?? 1);
}

function fail(status) {
  rmSync(stage, { recursive: true, force: true });
  process.exit(status);
}

/**
 * Puts the staged build in dist/'s place: two renames, microseconds apart (bin/skillctl.js waits
 * out that gap rather than report the CLI unbuilt). A process already running from the previous
 * build keeps its loaded bundles; a chunk it loads after this instant comes from the new build.
 */
function swap() {
  if (existsSync(dist)) renameSync(dist, previous);
  renameSync(stage, dist);
  rmSync(previous, { recursive: true, force: true });
}

rmSync(stage, { recursive: true, force: true });
// A build that compiles starts empty (no file of a removed module survives); one that does not
// compile starts from the current dist/.
if (only.length > 0 && !only.includes('tsc') && existsSync(dist)) cpSync(dist, stage, { recursive: true });
process.on('SIGINT', () => fail(130));
process.on('SIGTERM', () => fail(143));

try {
  await step('generate', () => generate(root));
  await step('skill-schemas', () => generateSkillSchemas(root));
  await step('tsc', () => run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', stage]));
  await step('default-bundles', () => snapshotDefaultBundles(root, stage));
  await step('packs', () => checkPacks(root, stage));
  await step('bundle', () => bundleCli(root, stage));
} catch (err) {
  process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
  fail(1);
}
if (existsSync(stage)) swap();
// Code caches for dist/boot.cjs to use (src/entry/warmups.mjs), made in dist/ itself: a script
// compiled from a cache keeps the file name it was produced under, and a stack trace should not
// name the staging directory, gone after the swap. Until they are written, bundles compile cold.
try {
  await step('warmup', () => warmUp(root, dist));
} catch (err) {
  process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
