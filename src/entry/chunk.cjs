'use strict';
// What a bundle holds in place of a chunk it imports (src/entry/chunks.mjs): a call that loads the
// chunk through dist/boot.cjs, once, with its V8 code cache. Bundled into every bundle that
// imports a chunk; the build (src/entry/bundle.mjs) writes only the call.
module.exports = function chunk(rel) {
  const boot = globalThis[Symbol.for('skillctl.boot')];
  // Only a bundle loaded by hand, not through bin/skillctl.js, gets here.
  if (boot === undefined) throw new Error(`skillctl's bundles load through dist/boot.cjs, not on their own (${rel})`);
  return boot.load(rel);
};
