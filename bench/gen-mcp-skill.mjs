#!/usr/bin/env node
// Writes DIR/bench-skill: a SKILL.md folder of N files in all (default 1,000), each 4 KiB of
// text in 20 subfolders, for bench/pull-mcp.sh. Deterministic: the same tree on every run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, count = '1000'] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: gen-mcp-skill.mjs DIR [FILES]');
const root = join(dir, 'bench-skill');
mkdirSync(root, { recursive: true });
writeFileSync(join(root, 'SKILL.md'), '---\nname: bench-skill\ndescription: A skill of many files, for the pull benchmark.\nmetadata:\n  version: "1.0.0"\n---\n# Bench\n\nSee references/.\n');
for (let i = 1; i < Number(count); i++) {
  const sub = join(root, 'references', `part-${i % 20}`);
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(sub, `note-${i}.md`), `# Note ${i}\n\n${`line ${i} of the benchmark skill, plain text.\n`.repeat(96)}`.slice(0, 4096));
}
