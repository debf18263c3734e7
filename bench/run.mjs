#!/usr/bin/env node
// Runs the benchmarks: every bench/*.sh, or the ones named (`npm run bench -- startup`).
// Each prints hyperfine's side-by-side comparison; figures go to docs/performance.md by hand.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.sh') && f !== 'lib.sh')
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.sh$/, '')))
  .sort();
let failed = 0;
for (const s of scripts) {
  process.stdout.write(`\n### ${s}\n`);
  const r = spawnSync('bash', [join(here, s)], { stdio: 'inherit', cwd: join(here, '..') });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
