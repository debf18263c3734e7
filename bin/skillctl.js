#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json), so start-up skips the ES module loader; dist/boot.cjs loads the
// pre-built CLI bundle with its V8 code cache.
// `skillctl skill` (the command agents call most) first tries a path that loads no CLI framework;
// it handles only a plain, valid request and leaves everything else to the full CLI.
if (process.argv.includes('skill') && require('../dist/skill-fast.cjs').fastCli()) return;
require('../dist/boot.cjs').cli();
