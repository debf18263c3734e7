// The CLI's bundles (the build's `bundle` step, scripts/build.mjs): every bundle src/entry/chunks.mjs
// declares, as CommonJS (no ES module loader at start), plus dist/boot.cjs. What is bundled and
// what is split off is decided by that list only, never by a file's name.
import { copyFileSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { DYNAMIC_CHUNKS, ENTRIES, ENTRY_CHUNKS, LAZY_BUILTINS, SYNC_CHUNKS } from './chunks.mjs';

/** Bundled: what every invocation needs; the other dependencies stay in node_modules. */
const BUNDLED = new Set([
  'commander',
  // Intent matching's Porter stemmer: a few KB, and an ES module only, which the CommonJS bundles
  // could otherwise reach only through require(esm).
  'stemmer',
  'yaml',
  'js-yaml',
  'chalk',
  'ignore',
  // Loading ajv from node_modules (dozens of files, no code cache) costs more than the whole run of
  // a process entrypoint; bundled, it loads with its chunk's code cache, and only when used.
  'ajv',
  'ajv-formats',
  // Version precedence when a run picks a pin: its few modules, bundled, cost nothing at start-up.
  'semver',
  // Used by `skillctl mcp` alone, never by the library (src/index.ts): bundled into cmd/mcp.cjs and
  // kept out of a user's install, where the SDK with zod, hono, express and their dependencies
  // weighed about 17 MB of 45 (bench/install-size.sh). They are devDependencies for that reason.
  '@modelcontextprotocol/sdk',
  'zod',
]);

/**
 * A chunk's stand-in: a module that loads `cmd/<name>.cjs` through src/entry/chunk.cjs. A dynamic
 * import gets the chunk's exports; a static import of a sync chunk gets forwarders that load it on
 * the first call of one of its declared exports.
 */
function chunkStandIns(root) {
  const loader = JSON.stringify(join(root, 'src/entry/chunk.cjs'));
  const source = (args) => relative(root, resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
  return {
    name: 'chunk-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'dynamic-import') {
          const name = DYNAMIC_CHUNKS[source(args)];
          return name === undefined ? undefined : { path: name, namespace: 'dynamic-chunk' };
        }
        if (args.kind === 'import-statement') {
          const chunk = SYNC_CHUNKS[source(args)];
          return chunk === undefined ? undefined : { path: chunk.name, namespace: 'sync-chunk', pluginData: chunk };
        }
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'dynamic-chunk' }, (args) => ({
        contents: `module.exports = require(${loader})(${JSON.stringify(`cmd/${args.path}.cjs`)});`,
        loader: 'js',
        resolveDir: root,
      }));
      b.onLoad({ filter: /.*/, namespace: 'sync-chunk' }, (args) => {
        const load = `(m ??= require(${loader})(${JSON.stringify(`cmd/${args.path}.cjs`)}))`;
        const forwarders = args.pluginData.exports.map((name) => `exports.${name} = (...a) => ${load}.${name}(...a);`);
        return { contents: `let m;\n${forwarders.join('\n')}`, loader: 'js', resolveDir: root };
      });
    },
  };
}

/** The built-ins LAZY_BUILTINS names, required on first use when the named package imports them. */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    for (const { package: pkg, builtin } of LAZY_BUILTINS) {
      const inPackage = `/node_modules/${pkg}/`;
      b.onResolve({ filter: new RegExp(`^${builtin}$`) }, (args) =>
        args.importer.replaceAll('\\', '/').includes(inPackage) ? { path: builtin, namespace: 'lazy-builtin' } : undefined,
      );
    }
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; module.exports = new Proxy({}, { get(_, k) { m ??= require(${JSON.stringify(args.path)}); return m[k]; } });`,
      loader: 'js',
    }));
  },
};

/**
 * Subpaths a package exports for `import` only, which the bundles (CommonJS, where import() becomes
 * require()) could not load by name: each is required by its file, found beside the file the
 * package exports to `require`. unpdf/pdfjs (pdf.js without canvas, for extract.text) is one; it
 * loads through require(esm), which Node 20.19 and later have.
 */
const IMPORT_ONLY = { 'unpdf/pdfjs': { package: 'unpdf', file: 'pdfjs.mjs' } };

const importOnly = {
  name: 'import-only-subpaths',
  setup(b) {
    const names = Object.keys(IMPORT_ONLY).map((n) => n.replace(/[/.]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'import-only' }));
    b.onLoad({ filter: /.*/, namespace: 'import-only' }, (args) => {
      const { package: pkg, file } = IMPORT_ONLY[args.path];
      return {
        contents: `const p = require('node:path'); module.exports = require(p.join(p.dirname(require.resolve(${JSON.stringify(pkg)})), ${JSON.stringify(file)}));`,
        loader: 'js',
      };
    });
  },
};

/** Bundles the CLI of the repository at `root` into `out` (the build's staging directory). */
export async function bundleCli(root, out) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !BUNDLED.has(d));
  const esbuild = await import('esbuild');
  const chunks = { ...DYNAMIC_CHUNKS, ...ENTRY_CHUNKS, ...Object.fromEntries(Object.entries(SYNC_CHUNKS).map(([src, c]) => [src, c.name])) };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      ...Object.entries(ENTRIES).map(([src, name]) => ({ in: src, out: name })),
      ...Object.entries(chunks).map(([src, name]) => ({ in: src, out: `cmd/${name}` })),
    ],
    outExtension: { '.js': '.cjs' },
    plugins: [chunkStandIns(root), lazyBuiltins, importOnly],
    // Dynamic import() becomes require(): no ES module loader is started for a lazy command.
    supported: { 'dynamic-import': false },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    // Not keepNames: its __name() calls break a function whose source runs elsewhere (the egress
    // bridge, a thread's code), and nothing reads a function's or class's name.
    minifyIdentifiers: true,
    legalComments: 'none',
    logLevel: 'warning',
    outdir: out,
    external: external.flatMap((d) => [d, `${d}/*`]),
  });
  copyFileSync(join(root, 'src/entry/boot.cjs'), join(out, 'boot.cjs'));
}
