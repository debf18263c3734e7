#!/usr/bin/env node
// Writes the hostile documents of bench/hostile-documents.sh under DIR: manifests of 40,000 keys
// (620 KB) and 200,000 keys, a project whose 600 KB lock has 40,000 extra keys, and a manifest
// as wide as the key bound allows (parsed whole).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: gen-hostile.mjs DIR');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = readFileSync(join(root, 'fixtures/manifests/valid/node-entrypoint/skill.yaml'), 'utf8').trimEnd();
const keys = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}: v`).join('\n');
writeFileSync(join(dir, 'keys-40k.yaml'), `${manifest}\n${keys(40_000, 'x_key_number_')}\n`);
writeFileSync(join(dir, 'keys-200k.yaml'), `${manifest}\n${keys(200_000, 'k')}\n`);
// Within the bounds, parsed whole: 9,900 unknown top-level keys (each a finding; 1,000 listed)
// and three x- extension mappings of 9,900 keys each (extension fields are not findings).
const wide = ['x-a', 'x-b', 'x-c'].map((k) => `${k}:\n${Array.from({ length: 9_900 }, (_, i) => `  k${i}: v`).join('\n')}`).join('\n');
writeFileSync(join(dir, 'keys-within.yaml'), `${manifest}\n${keys(9_900, 'y')}\n${wide}\n`);

const project = join(dir, 'project');
mkdirSync(join(project, 'pins'), { recursive: true });
cpSync(join(root, 'manifests'), join(project, 'manifests'), { recursive: true });
const lock = JSON.parse(readFileSync(join(root, 'pins/skills.lock.json'), 'utf8'));
for (let i = 0; i < 40_000; i++) lock[`x${i}`] = 1;
writeFileSync(join(project, 'pins/skills.lock.json'), JSON.stringify(lock, null, 2) + '\n');
