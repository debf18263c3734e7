#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json), so start-up skips the ES module loader; dist/boot.cjs loads the
// pre-built CLI bundle with its V8 code cache.
require('../dist/boot.cjs').cli();
