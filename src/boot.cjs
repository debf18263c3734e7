'use strict';
// Start-up loader for the CLI bundles (copied to dist/boot.cjs by the build).
//
// Most of skillctl's start-up cost is V8 compiling the bundles. The build runs a few warm-up
// commands with SKILLCTL_V8_CACHE=produce, which writes each bundle's code cache *after* it ran,
// so the cache holds the functions a real invocation compiles, not only the top level. Here each
// bundle is compiled with its cache; V8 rejects a cache made by another V8 version or for other
// source bytes, and then the bundle simply compiles as usual. SKILLCTL_V8_CACHE=off disables it.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const mode = process.env.SKILLCTL_V8_CACHE;
const produced = [];

const loaded = new Map();

/** Loads a bundle once (a fast path that declines leaves its chunk loaded for the full CLI). */
function load(rel) {
  let exports = loaded.get(rel);
  if (exports === undefined) {
    exports = compile(rel);
    loaded.set(rel, exports);
  }
  return exports;
}

function compile(rel) {
  const filename = path.join(__dirname, rel);
  const source = fs.readFileSync(filename, 'utf8');
  let cachedData;
  if (mode !== 'produce' && mode !== 'off') {
    try {
      cachedData = fs.readFileSync(filename + '.v8cache');
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename, cachedData });
  const mod = new Module(filename, module);
  mod.filename = filename;
  const req = Module.createRequire(filename);
  script.runInThisContext()(mod.exports, req, mod, filename, path.dirname(filename));
  mod.loaded = true;
  if (mode === 'produce') produced.push([script, filename]);
  return mod.exports;
}

// The bundles load their lazily imported command chunks through this hook; the second names
// the file a worker thread starts from (see the end of this file).
globalThis[Symbol.for('skillctl.loadChunk')] = load;
globalThis[Symbol.for('skillctl.workerBoot')] = __filename;
// Where the bundles are, for commands that start worker threads of their own (verify-pins, pack).
globalThis[Symbol.for('skillctl.distDir')] = __dirname;

if (mode === 'produce') {
  process.on('exit', () => {
    for (const [script, filename] of produced) fs.writeFileSync(filename + '.v8cache', script.createCachedData());
  });
}

if (process.argv.includes('--skillctl-worker')) {
  // A worker thread of a command: it loads that command's chunk (with the same code cache as
  // the main thread) and runs the named export on its job; the CLI bundle is not needed.
  const { workerData } = require('node:worker_threads');
  load(workerData.chunk)[workerData.entry](workerData.job);
} else {
  module.exports = {
    cli: () => load('skillctl.cjs').cli(),
    // A plain `skillctl validate PATH...` (see src/cli/validate-fast.ts), without the CLI framework.
    validate: (plain) => load('cmd/validate.cjs').fastCli(plain),
  };
}
