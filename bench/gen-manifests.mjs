#!/usr/bin/env node
// Writes N digest-correct bundles (a manifest plus a script) under DIR, for benchmarks.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeContent, dirSource, manifestDigestOf } from '../dist/src/index.js';

const [dir, n = '1000'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: gen-manifests.mjs DIR [N]');
  process.exit(2);
}
const template = readFileSync(new URL('../manifests/examples/text.stats/skill.yaml', import.meta.url), 'utf8');
const script = readFileSync(new URL('../manifests/examples/text.stats/stats.js', import.meta.url), 'utf8');
const { parse, stringify } = await import('yaml');
for (let i = 0; i < Number(n); i++) {
  const b = join(dir, `skill-${String(i).padStart(4, '0')}`);
  mkdirSync(b, { recursive: true });
  writeFileSync(join(b, 'stats.js'), `${script}// ${i}\n`);
  const m = parse(template);
  m.skill_id = `bench.skill${i}`;
  m.content_digest = (await computeContent(dirSource(b))).digest;
  m.manifest_digest = manifestDigestOf(m);
  writeFileSync(join(b, 'skill.yaml'), stringify(m));
}
