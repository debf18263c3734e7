#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json), so start-up skips the ES module loader; dist/boot.cjs loads the
// pre-built CLI bundle with its V8 code cache.
// `skillctl skill` (the command agents call most) first tries a path that loads no CLI framework;
// it handles only a plain, valid request and leaves everything else to the full CLI.
// `skillctl validate PATH...` (what hooks and editors run) skips the CLI framework the same way.
if (process.argv.includes('skill') && require('../dist/skill-fast.cjs').fastCli()) return;
const plain = process.argv[2] === 'validate' ? require('../dist/validate-argv.cjs').plainValidate(process.argv.slice(2)) : undefined;
if (plain !== undefined) require('../dist/boot.cjs').validate(plain);
else require('../dist/boot.cjs').cli();
