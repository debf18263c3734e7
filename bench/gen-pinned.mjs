#!/usr/bin/env node
// Writes a project of N generated bundles holding about MB megabytes in total under DIR, signs
// each by SIGNERS signers (default 2) and pins them all (min_signers = SIGNERS), for the
// verify-pins benchmark.
// FORMAT is json (skill.json manifests) or yaml (skill.yaml). Prints the data file list to
// DIR/files.txt (NUL-separated): every file of every bundle, for the sha256sum/openssl baselines.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { computeContent, dirSource, manifestDigestOf } from '../dist/src/index.js';
import { canonicalManifest } from '../dist/test/helpers/manifests.js';
import { collectTargets, findBundles, pin } from '../dist/src/core/pins/index.js';
import { keygen, readSecretKey } from '../dist/src/core/sign/index.js';

const [dir, n = '1000', mb = '200', format = 'json', signers = '2'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: gen-pinned.mjs DIR [N] [MB] [json|yaml] [SIGNERS]');
  process.exit(2);
}
const count = Number(n);
const perBundle = Math.floor((Number(mb) * 1024 * 1024) / count);
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const { stringify } = await import('yaml');

function manifest(i) {
  return { ...canonicalManifest(), skill_id: `bench.skill${i}`, skill_version: '1.0.0', description: 'A generated skill for the verify-pins benchmark.' };
}

for (let i = 0; i < count; i++) {
  const b = join(dir, 'manifests', `b${String(i).padStart(4, '0')}`);
  mkdirSync(join(b, 'lib'), { recursive: true });
  // A script, a README and one larger data file: text and binary, as skills ship them.
  writeFileSync(join(b, 'run.py'), `print("skill ${i}")\n`.repeat(200));
  writeFileSync(join(b, 'README.md'), `# Skill ${i}\n\n${'Generated text. '.repeat(256)}\n`);
  const data = Buffer.allocUnsafe(Math.max(0, perBundle - 8000));
  for (let j = 0; j < data.length; j += 4) data.writeUInt32LE((rnd() * 2 ** 32) >>> 0, Math.min(j, data.length - 4));
  writeFileSync(join(b, 'lib', 'data.bin'), data);
  const m = manifest(i);
  m.content_digest = (await computeContent(dirSource(b))).digest;
  m.manifest_digest = manifestDigestOf(m);
  writeFileSync(join(b, format === 'yaml' ? 'skill.yaml' : 'skill.json'), format === 'yaml' ? stringify(m) : JSON.stringify(m, null, 2) + '\n');
}

const signing = [];
for (const signer of ['alice', 'bob', 'carol'].slice(0, Number(signers))) {
  const secretPath = join(dir, '.skillctl', 'keys', `${signer}.key`);
  await keygen({ signer, secretPath, secretLabel: secretPath, keysPath: join(dir, 'pins', 'public-keys.json'), keysLabel: 'pins/public-keys.json', force: false });
  signing.push({ signer, key: (await readSecretKey(secretPath)).key });
}
const targets = await collectTargets(dir, dir, [], true);
const out = await pin({
  root: dir,
  lockPath: join(dir, 'pins', 'skills.lock.json'),
  lockFile: 'pins/skills.lock.json',
  targets: targets.targets,
  signing,
  replace: false,
  trustKeys: false,
  minSigners: signing.length,
  prune: true,
  fileLock: { now: () => Date.now(), pid: process.pid, hostname: hostname(), isAlive: () => false, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), timeoutMs: 10_000, staleMs: 60_000 },
});
if (!out.ok) {
  console.error(JSON.stringify(out.diagnostics.slice(0, 5), null, 2));
  process.exit(1);
}
const files = [];
let bytes = 0;
for (const b of await findBundles(dir)) {
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel))) {
      const p = `${rel}/${name}`;
      if (statSync(join(dir, p)).isDirectory()) walk(p);
      else {
        files.push(p);
        bytes += statSync(join(dir, p)).size;
      }
    }
  };
  walk(b);
}
writeFileSync(join(dir, 'files.txt'), files.join('\0'));
console.error(`gen-pinned: ${count} bundles, ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${dir}`);
