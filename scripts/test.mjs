#!/usr/bin/env node
// `npm test`: build, lint, then every test under dist/test with node --test. Fails when no test
// ran (node --test exits 0 on an empty directory) or when any failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const node = process.execPath;

function run(label, cmd, cmdArgs, opts = {}) {
  process.stderr.write(`\n== ${label}\n`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    process.stderr.write(`\n${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

process.stderr.write(`node ${process.version}\n`);
if (!args.includes('--no-build')) run('build', node, ['scripts/build.mjs']);
if (!args.includes('--no-lint')) run('lint', node, ['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.']);

const out = join(root, 'dist', 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tap = join(out, 'results.tap');
// Plain output for logs: no colour, whatever the caller's terminal settings.
function testEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

// Only *.test.js files are tests (helpers live beside them); node 20 takes no globs, so list them.
function testFiles(dir) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => join(dir, f))
    .sort();
}
const only = args.filter((a) => !a.startsWith('--'));
const files = only.length > 0 ? only.flatMap((p) => (p.endsWith('.js') ? [join('dist', p)] : testFiles(join('dist', p)))) : testFiles('dist/test');
run('test', node, [
  '--test',
  '--test-concurrency=4',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...files,
], { env: testEnv() });

const summary = readFileSync(tap, 'utf8');
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(summary)?.[1] ?? 0);
const tests = count('tests');
const failed = count('fail');
process.stderr.write(`\n${tests} tests, ${failed} failed (node ${process.version})\n`);
if (tests === 0) {
  process.stderr.write('no test ran: refusing to pass\n');
  process.exit(1);
}
if (failed > 0) process.exit(1);
