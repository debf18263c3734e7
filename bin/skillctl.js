#!/usr/bin/env node
'use strict';
// The executable. CommonJS (see bin/package.json), so start-up skips the ES module loader; the
// start-up wing (src/entry/, built into dist/boot.cjs) picks a fast path or the full CLI.
const fs = require('node:fs');
const path = require('node:path');

function boot() {
  // The build swaps a new dist/ into place by two renames (scripts/build.mjs): a start that falls
  // between them waits for the second rather than report the CLI unbuilt.
  for (let attempt = 0; ; attempt++) {
    try {
      return require('../dist/boot.cjs');
    } catch (err) {
      if (err.code !== 'MODULE_NOT_FOUND' || fs.existsSync(path.join(__dirname, '..', 'dist', 'boot.cjs'))) throw err;
      if (attempt === 5) return undefined;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

const loaded = boot();
if (loaded !== undefined) loaded.main(process.argv.slice(2));
else {
  // A clone before `npm ci`, or a build that failed: one line, not a stack trace.
  process.stderr.write(`skillctl is not built: run npm ci (or npm run build) in ${path.resolve(__dirname, '..')}\n`);
  process.exitCode = 2;
}
