#!/usr/bin/env node
'use strict';
// The executable. CommonJS (see bin/package.json), so start-up skips the ES module loader; the
// start-up wing (src/entry/, built into dist/boot.cjs) picks a fast path or the full CLI.
require('../dist/boot.cjs').main(process.argv.slice(2));
