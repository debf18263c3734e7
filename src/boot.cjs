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

function load(rel) {
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

// The bundles load their lazily imported command chunks through this hook, and find the
// directory of worker-thread entry points through the second.
globalThis[Symbol.for('skillctl.loadChunk')] = load;
globalThis[Symbol.for('skillctl.distDir')] = __dirname;

if (mode === 'produce') {
  process.on('exit', () => {
    for (const [script, filename] of produced) fs.writeFileSync(filename + '.v8cache', script.createCachedData());
  });
}

module.exports = load('skillctl.cjs');
