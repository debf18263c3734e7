#!/usr/bin/env node
// Writes one digest-correct bundle of about MB megabytes under DIR, for the pack benchmark:
// half compressible text, half incompressible data, in files of 4 KiB to 2 MiB, in ten folders.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeContent, dirSource, manifestDigestOf } from '../dist/src/index.js';
import { canonicalManifest } from '../dist/test/helpers/manifests.js';

const [dir, mb = '100'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: gen-pack-bundle.mjs DIR [MB]');
  process.exit(2);
}
let seed = 42;
const rnd = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
const words = Array.from({ length: 4000 }, (_, i) => `w${((i * 2654435761) >>> 0).toString(36).slice(0, 3 + (i % 7))}`);
const total = Number(mb) * 1024 * 1024;
let made = 0;
for (let n = 0; made < total; n++) {
  const size = 4096 + 4 * (rnd() % (512 * 1024));
  let buf;
  if (n % 2 === 0) {
    const parts = [];
    let len = 0;
    while (len < size) {
      const w = words[rnd() % words.length] + (rnd() % 12 === 0 ? '\n' : ' ');
      parts.push(w);
      len += w.length;
    }
    buf = Buffer.from(parts.join(''));
  } else {
    buf = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) buf.writeUInt32LE(rnd(), i);
  }
  const sub = join(dir, `d${n % 10}`);
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(sub, `f${n}.${n % 2 === 0 ? 'txt' : 'bin'}`), buf);
  made += buf.length;
}
writeFileSync(join(dir, 'run.py'), 'print("pack")\n');
const m = { ...canonicalManifest(), skill_id: 'bench.pack', skill_version: '1.0.0', description: 'A generated 100 MB bundle for the pack benchmark.' };
m.content_digest = (await computeContent(dirSource(dir))).digest;
m.manifest_digest = manifestDigestOf(m);
writeFileSync(join(dir, 'skill.json'), JSON.stringify(m, null, 2) + '\n');
console.error(`gen-pack-bundle: ${(made / 1024 / 1024).toFixed(1)} MiB in ${dir}`);
