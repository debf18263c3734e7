#!/usr/bin/env node
// Medians and ratios to the first command of a hyperfine --export-json file (hyperfine's own
// summary uses means), and CPU time (user + system, mean), which a busy machine disturbs less.
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync(process.argv[2], 'utf8')).results;
const [b] = r;
const cpu = (x) => x.user + x.system;
console.log('median wall       cpu (user+sys)    command');
for (const x of r) {
  const w = `${(x.median * 1000).toFixed(1)} ms ${(x.median / b.median).toFixed(2)}x`;
  const c = `${(cpu(x) * 1000).toFixed(1)} ms ${(cpu(x) / cpu(b)).toFixed(2)}x`;
  console.log(`${w.padEnd(18)}${c.padEnd(18)}${x.command}`);
}
