'use strict';
// The start-up wing's loader (src/entry/; the build copies it to dist/boot.cjs). bin/skillctl.js
// requires it and calls `main`; every worker thread of the CLI starts from it too (see the end).
//
// Most of skillctl's start-up cost is V8 compiling the bundles, so each bundle is compiled with a
// V8 code cache beside it (<bundle>.v8cache). No cache ships in the package: a cache only works
// for the V8 build that made it, so one made on the packer's machine is dead weight on most
// users' (docs/performance.md). Instead, the first time a bundle is compiled without a usable
// cache (none yet, or V8 rejected one made by another Node build or for other source bytes), its
// cache is written when the process ends, so it holds the functions that run compiled, not only
// the top level; where the package directory cannot be written, nothing is, and nothing fails.
// The build's warm-ups (src/entry/warmups.mjs) run with SKILLCTL_V8_CACHE=produce, which writes
// every cache whatever is there; SKILLCTL_V8_CACHE=off neither reads nor writes one.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const mode = process.env.SKILLCTL_V8_CACHE;
const produced = [];
let exitHook = false;

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
  // Required here, not at the top: the `skill` fast path never compiles through it.
  const vm = require('node:vm');
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
  // Queued before the bundle runs, so a run that ends inside it (process.exit) still writes it.
  // Not once heapForStreaming changed a V8 flag: a cache carries the flags it was made under.
  if (!streaming && (mode === 'produce' || (mode !== 'off' && (cachedData === undefined || script.cachedDataRejected === true)))) {
    if (!exitHook) process.on('exit', writeCaches);
    exitHook = true;
    produced.push([script, filename]);
  }
  const mod = new Module(filename, module);
  mod.filename = filename;
  const req = Module.createRequire(filename);
  script.runInThisContext()(mod.exports, req, mod, filename, path.dirname(filename));
  mod.loaded = true;
  return mod.exports;
}

/**
 * Writes the code cache of every bundle this thread compiled and queued, once: to a scratch file
 * created anew (never through a link someone left), then renamed over the cache, as threads and
 * processes may race. Outside the build, a cache that cannot be written (a read-only install) is
 * left out silently: it only saves time.
 */
function writeCaches() {
  for (const [script, filename] of produced.splice(0)) {
    const tmp = `${filename}.v8cache.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      fs.writeFileSync(tmp, script.createCachedData(), { flag: 'wx' });
      fs.renameSync(tmp, filename + '.v8cache');
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      if (mode === 'produce') throw err;
    }
  }
}

/**
 * For a command about to stream a large layer (pull, push: src/cli/streaming-heap.ts). Each piece
 * is a Buffer outside the heap, freed only when a young-generation collection finds it dead, and
 * V8 grows the young generation as the process allocates (up to 32 MiB), so dead pieces pile up
 * between collections: a 1 GiB pull peaked at 104 MB, under 100 MB with the young generation kept
 * at the size it has (docs/performance.md). `--max-semi-space-size` is read only as the isolate
 * starts; the growth factor each time it would grow, so it can be set now.
 *
 * V8 rejects a code cache made under other flags, so changing one has a price, paid only by the
 * command that streams: the caches made so far are written first (with the flags they were made
 * under), and a bundle compiled after the change runs without its cache and writes none (it would
 * carry the changed flags, and every other command would then reject and rewrite it).
 *
 * `writeMadeSoFar` false: the command's bundle also answers without streaming (a pull the cache
 * answers), and what this run compiled before it streamed is only part of that path. A cache is
 * kept once written, so a partial one would cost every later cache hit the functions it lacks
 * (about 6 ms of a 95 ms pull, docs/performance.md): none is written now, and the first run that
 * does not stream writes a whole one.
 */
let streaming = false;
function heapForStreaming(writeMadeSoFar = true) {
  if (streaming) return;
  if (writeMadeSoFar) writeCaches();
  else produced.length = 0;
  streaming = true;
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}

// How the bundles reach this loader: a chunk's stand-in (src/entry/chunk.cjs) loads the chunk
// through `load`, with its code cache; src/entry/workers.ts starts worker threads from `file`;
// src/cli/streaming-heap.ts calls heapForStreaming.
globalThis[Symbol.for('skillctl.boot')] = { load, file: __filename, heapForStreaming };

/** Runs skillctl with `argv` (without node and script): a fast path when one applies, else the full CLI. */
function main(argv) {
  // `skillctl skill` (the command agents call most) first tries a path that loads no CLI framework;
  // it handles only a plain, valid request and leaves everything else to the full CLI.
  if (argv.includes('skill') && require('./skill-fast.cjs').fastCli(argv)) return;
  // `skillctl validate PATH...` (what hooks and editors run) skips the CLI framework the same way.
  const plain = argv[0] === 'validate' ? require('./validate-argv.cjs').plainValidate(argv) : undefined;
  // `skillctl pull oci://REF`, repeated by setup scripts and agents, the same way.
  const pull = argv[0] === 'pull' ? require('./pull-argv.cjs').plainPull(argv) : undefined;
  // `skillctl verify-pins` over a large lock: its worker threads boot while the CLI loads.
  if (argv[0] === 'verify-pins') require('./early-pool.cjs').startEarlyPool(argv);
  // `skillctl run <dir>` of a wasm skill, or `run <built-in id>`, starts the skill's thread now, to
  // boot while the CLI loads.
  const early = argv[0] === 'run' ? require('./run-argv.cjs').earlyRunTarget(argv) : undefined;
  if (early?.dir !== undefined) load('wasm-early.cjs').startWasmThread(early);
  else if (early?.skillId !== undefined) load('builtin-early.cjs').startBuiltinThread(early, path.join(__dirname, 'default-bundles.json'));
  if (plain !== undefined) load('cmd/validate.cjs').fastCli(plain);
  else if (pull !== undefined) load('cmd/pull-oci.cjs').fastCli(pull);
  else load('skillctl.cjs').cli(argv);
}

// A worker thread of the CLI (src/entry/workers.ts) names a chunk and the export to run. The flag
// alone is not enough: a user's argument list may hold it too, on the main thread.
const worker = process.argv.includes('--skillctl-worker') ? require('node:worker_threads') : undefined;
if (worker !== undefined && !worker.isMainThread) {
  const { chunk, entry, data } = worker.workerData;
  if (mode !== 'off') {
    // A worker that is terminated runs no exit handler: write the caches with each message it posts.
    const post = worker.parentPort.postMessage.bind(worker.parentPort);
    worker.parentPort.postMessage = (...args) => {
      writeCaches();
      post(...args);
    };
  }
  load(chunk)[entry](data);
} else {
  module.exports = { main };
}
