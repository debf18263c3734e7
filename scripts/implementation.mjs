// The TypeScript that implements each built-in skill, with its digests, written into the skill's
// bundle as manifests/default/<id>/implementation.json. A built-in's manifest names no file of its
// own (`command: builtin:<id>`), so without this its content_digest, and the pin over it, covered
// nothing that runs: the implementation could change under an unchanged pin. With it, a changed
// module is a changed bundle, so `verify-pins` fails until the bundle is fixed and pinned again.
//
// What counts: the skill's module and every module it imports, transitively, inside src/skills/
// (its own helpers in src/skills/lib/). The host it runs in (src/core: the policy gate, the run
// engine) is skillctl itself, versioned by its release as an interpreter is by runtime_version.
//
//   node scripts/implementation.mjs           exit 1 and name each stale file
//   node scripts/implementation.mjs --write   write them (then: skillctl validate --fix, and pin --replace signed with the project key: docs/formats/signatures.md)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const IMPLEMENTATION_FILE = 'implementation.json';
const SKILLS = 'src/skills/';
// Static imports, re-exports, type-only imports and dynamic imports of a relative module.
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g;

/** The sources of built-in `id` (paths relative to the repository, sorted) with their sha256. */
export function implementationOf(id, root = ROOT) {
  const start = `${SKILLS}${id}.ts`;
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop();
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = `${posix.normalize(posix.join(posix.dirname(file), m[1]))}.ts`;
      if (target.startsWith(SKILLS) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  const sources = [...seen].sort().map((path) => ({ path, digest: `sha256:${createHash('sha256').update(readFileSync(join(root, path))).digest('hex')}` }));
  return { skill_id: id, sources };
}

/** The file's bytes: stable JSON, one source a line. */
export function renderImplementation(doc) {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Each built-in bundle whose implementation.json is missing or stale: [bundle dir, expected text]. */
export function staleImplementations(root = ROOT) {
  const base = join(root, 'manifests', 'default');
  const out = [];
  for (const id of readdirSync(base).sort()) {
    const file = join(base, id, IMPLEMENTATION_FILE);
    const want = renderImplementation(implementationOf(id, root));
    if (!existsSync(file) || readFileSync(file, 'utf8') !== want) out.push([dirname(file), want]);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = staleImplementations();
  if (process.argv.includes('--write')) {
    for (const [dir, text] of stale) writeFileSync(join(dir, IMPLEMENTATION_FILE), text);
    for (const [dir] of stale) console.log(`wrote ${join(dir, IMPLEMENTATION_FILE)}`);
  } else {
    for (const [dir] of stale) console.error(`stale: ${join(dir, IMPLEMENTATION_FILE)} (node scripts/implementation.mjs --write)`);
    process.exitCode = stale.length > 0 ? 1 : 0;
  }
}
