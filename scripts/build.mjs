#!/usr/bin/env node
// Build: JSON Schemas -> standalone validators (no schema is compiled at start-up),
// TypeScript -> dist/ (library and tests), and one CommonJS bundle for the CLI (fast start).
// `node scripts/build.mjs [step...]` runs only the named steps.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotDefaultBundles } from './default-bundles.mjs';
import { generate } from './generate.mjs';
import { generateSkillSchemas } from './skill-schemas.mjs';
import { DYNAMIC_CHUNKS, ENTRY_CHUNKS, SYNC_CHUNKS } from './chunks.mjs';
import { checkPacks } from './packs.mjs';
import { WARMUPS } from './warmups.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);

async function step(name, fn) {
  if (only.length > 0 && !only.includes(name)) return;
  const t0 = performance.now();
  await fn();
  process.stderr.write(`build: ${name} ${Math.round(performance.now() - t0)} ms\n`);
}

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

await step('generate', () => generate(root));
await step('skill-schemas', () => generateSkillSchemas(root));

await step('tsc', () => {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
});

await step('default-bundles', () => snapshotDefaultBundles(root));
await step('packs', () => checkPacks(root));

await step('bundle', async () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // Bundled: what every invocation needs. External: heavier libraries that only the
  // commands using them import, lazily, so they cost nothing on the start-up path.
  // ajv too: loading it from node_modules (dozens of files, no code cache) costs more than the whole
  // run of a process entrypoint; bundled, it loads with its chunk's code cache, and only when used.
  const bundled = new Set(['commander', 'yaml', 'js-yaml', 'chalk', 'ignore', 'ajv', 'ajv-formats']);
  const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !bundled.has(d));
  const esbuild = await import('esbuild');
  // The chunks are listed in scripts/chunks.mjs. `import('./x.js')` of a listed module becomes a
  // module that asks dist/boot.cjs to load dist/cmd/<name>.cjs (with its code cache); without
  // boot.cjs, a plain require of the chunk.
  const source = (args) => relative(root, resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
  const lazyChunks = {
    name: 'lazy-chunks',
    setup(b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || !args.path.startsWith('.')) return undefined;
        const chunk = DYNAMIC_CHUNKS[source(args)];
        return chunk === undefined ? undefined : { path: chunk, namespace: 'lazy-chunk' };
      });
      b.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.kind !== 'import-statement' || !args.path.startsWith('.')) return undefined;
        const chunk = SYNC_CHUNKS[source(args)];
        return chunk === undefined ? undefined : { path: chunk.name, namespace: 'sync-chunk', pluginData: chunk };
      });
      b.onLoad({ filter: /.*/, namespace: 'sync-chunk' }, (args) => {
        const rel = JSON.stringify(`cmd/${args.path}.cjs`);
        const forwarders = args.pluginData.exports.map((name) => `exports.${name} = (...a) => chunk().${name}(...a);`);
        return {
          contents: `let m;
const chunk = () => {
  const load = globalThis[Symbol.for('skillctl.loadChunk')];
  return (m ??= load ? load(${rel}) : require(require('node:path').join(__dirname, __dirname.endsWith('cmd') ? '..' : '.', ${rel})));
};
${forwarders.join('\n')}`,
          loader: 'js',
        };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-chunk' }, (args) => {
        const rel = JSON.stringify(`cmd/${args.path}.cjs`);
        return {
          contents: `const load = globalThis[Symbol.for('skillctl.loadChunk')];
module.exports = load ? load(${rel}) : require(require('node:path').join(__dirname, __dirname.endsWith('cmd') ? '..' : '.', ${rel}));`,
          loader: 'js',
        };
      });
    },
  };
  // commander requires child_process (and with it net, dgram, tty) at load, for executable
  // subcommands skillctl never uses: give it a module that loads child_process on first use.
  const lazyBuiltins = {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({ filter: /^node:child_process$/ }, (args) =>
        args.importer.includes('/node_modules/commander/') ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        contents: `let m; module.exports = new Proxy({}, { get(_, k) { m ??= require('node:${args.path}'); return m[k]; } });`,
        loader: 'js',
      }));
    },
  };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      { in: 'src/cli/main.ts', out: 'skillctl' },
      // Tried by bin/skillctl.js before the CLI loads: `skillctl skill` for a built-in pack.
      { in: 'src/cli/skill-fast.ts', out: 'skill-fast' },
      // Asked by bin/skillctl.js whether `validate ...` takes its fast path (src/cli/validate-fast.ts).
      { in: 'src/cli/validate-argv.ts', out: 'validate-argv' },
      ...Object.entries(DYNAMIC_CHUNKS).map(([src, name]) => ({ in: src, out: `cmd/${name}` })),
      ...Object.entries(ENTRY_CHUNKS).map(([src, name]) => ({ in: src, out: `cmd/${name}` })),
      ...Object.entries(SYNC_CHUNKS).map(([src, { name }]) => ({ in: src, out: `cmd/${name}` })),
    ],
    outExtension: { '.js': '.cjs' },
    plugins: [lazyChunks, lazyBuiltins],
    // Dynamic import() becomes require(): no ES module loader is started for a lazy command.
    supported: { 'dynamic-import': false },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    outdir: 'dist',
    external: external.flatMap((d) => [d, `${d}/*`]),
  });
  copyFileSync(join(root, 'src/boot.cjs'), join(root, 'dist/boot.cjs'));
});

await step('warmup', () => {
  // Code caches for dist/boot.cjs to use (see src/boot.cjs). Each warm-up runs one command the
  // way users do; a chunk no warm-up reaches just compiles without a cache.
  for (const args of WARMUPS) {
    spawnSync(process.execPath, [join(root, 'bin/skillctl.js'), ...args], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, SKILLCTL_V8_CACHE: 'produce', NO_COLOR: '1' },
      input: '',
    });
  }
});
